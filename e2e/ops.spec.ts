import { expect, test } from "@playwright/test";
import { parseExposition, sampleValue } from "../lib/server/ops/prometheus-text";
import { ADMIN, signIn } from "./session";

test("health, readiness and metrics on the running app", async ({ page, request }) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  // a small API answer is not gzipped (issue #18: Next's compression cannot see its size) nor stored by a cache
  const small = await request.get("/api/health", { headers: { "accept-encoding": "gzip" } });
  expect(small.headers()["content-encoding"]).toBeUndefined();
  expect(small.headers()["cache-control"]).toBe("no-store, no-transform");
  // the worker process beats within a few seconds of the start
  await expect.poll(async () => (await request.get("/api/ready")).status(), { timeout: 30_000 }).toBe(200);
  expect(await (await request.get("/api/ready")).json()).toMatchObject({ ready: true, checks: { database: true, migrations: true, worker: true } });
  expect((await request.get("/api/metrics")).status()).toBe(401);

  await signIn(page, ADMIN.email, ADMIN.password);
  const response = await page.request.get("/api/metrics");
  expect(response.status()).toBe(200);
  const metrics = parseExposition(await response.text());
  expect(sampleValue(metrics, "cereal_http_request_duration_seconds_count", { method: "GET", route: "/api/health", status: "200" })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(metrics, "cereal_queue_depth", { lane: "rounds" })).toEqual(expect.any(Number));
  // a large one still is (the OpenAPI document: tens of kB)
  const large = await page.request.get("/api/openapi.json", { headers: { "accept-encoding": "gzip" } });
  expect(large.status()).toBe(200);
  expect(large.headers()["content-encoding"]).toBe("gzip");
});
