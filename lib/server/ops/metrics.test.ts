import { beforeEach, describe, expect, it } from "vitest";
import * as health from "@/app/api/health/route";
import * as metricsRoute from "@/app/api/metrics/route";
import * as labelsRoute from "@/app/api/projects/[projectId]/labels/route";
import { db } from "../db";
import { runOneJob } from "../jobs/worker-loop";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { nextTasks } from "../labeling/tasks";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { parseExposition, sampleValue } from "./prometheus-text";

async function scrape() {
  const admin = await createTestUser("ADMIN");
  const response = await metricsRoute.GET(await requestAs(admin, "/api/metrics"), routeContext());
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

const LATENCY = "cereal_http_request_duration_seconds";

beforeEach(async () => {
  await db().job.deleteMany({});
  await db().workerHeartbeat.deleteMany({});
});

describe("GET /api/metrics", () => {
  it("is for administrators only", async () => {
    expect((await metricsRoute.GET(await requestAs(null, "/api/metrics"), routeContext())).status).toBe(401);
    const researcher = await createTestUser("RESEARCHER");
    expect((await metricsRoute.GET(await requestAs(researcher, "/api/metrics"), routeContext())).status).toBe(403);
  });

  it("parses as Prometheus text and shows the latency of a request just made, by route pattern", async () => {
    const before = await scrape();
    const labels = { method: "GET", route: "/api/health", status: "200" };
    const count = sampleValue(before, `${LATENCY}_count`, labels) ?? 0;
    expect((await health.GET(await requestAs(null, "/api/health"), routeContext())).status).toBe(200);

    const after = await scrape();
    expect(after.types.get(LATENCY)).toBe("histogram");
    expect(sampleValue(after, `${LATENCY}_count`, labels)).toBe(count + 1);
    expect(sampleValue(after, `${LATENCY}_bucket`, { ...labels, le: "+Inf" })).toBe(count + 1);
    expect(sampleValue(after, `${LATENCY}_sum`, labels)).toBeGreaterThan(sampleValue(before, `${LATENCY}_sum`, labels) ?? 0);

    // a route with a parameter is counted under its pattern, not its ids
    const { projectId, annotators } = await digitsProject({ seedSize: 3 });
    const user = await db().user.findUniqueOrThrow({ where: { id: annotators[0].id } });
    const [task] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    const body = { taskId: task.id, kind: "label", classIndex: 1, idempotencyKey: "metrics-label-1" };
    await labelsRoute.POST(await requestAs(user, `/api/projects/${projectId}/labels`, { method: "POST", json: body }), routeContext({ projectId }));
    const pattern = await scrape();
    expect(sampleValue(pattern, `${LATENCY}_count`, { method: "POST", route: "/api/projects/[projectId]/labels", status: "200" })).toBe(1);
    expect(pattern.samples.some((s) => s.labels.route?.includes(projectId))).toBe(false);
  });

  it("counts labels per minute, open tasks, the queue per lane, round steps and worker restarts", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 5);
    let m = await scrape();
    expect(sampleValue(m, "cereal_labels_per_minute", { project: projectId })).toBe(5);
    expect(sampleValue(m, "cereal_open_tasks", { project: projectId })).toBe(15);
    expect(sampleValue(m, "cereal_queue_depth", { lane: "rounds" })).toBe(0);
    expect(sampleValue(m, "cereal_queue_depth", { lane: "heavy" })).toBe(0);

    await labelAll(annotators[0], projectId, truth, 15);
    await db().job.updateMany({ where: { projectId }, data: { createdAt: new Date(Date.now() - 90_000) } });
    m = await scrape();
    expect(sampleValue(m, "cereal_queue_depth", { lane: "rounds" })).toBe(1);
    expect(sampleValue(m, "cereal_queue_oldest_age_seconds", { lane: "rounds" })).toBeGreaterThanOrEqual(90);
    const fits = sampleValue(m, "cereal_round_step_seconds_count", { step: "fit" }) ?? 0;

    expect(await runOneJob("metrics-worker", { deps: fastWorkerDeps })).toBe(true);
    await db().workerHeartbeat.createMany({ data: [1, 2, 3].map((n) => ({ id: `w${n}`, pid: n })) });
    m = await scrape();
    expect(sampleValue(m, "cereal_queue_depth", { lane: "rounds" })).toBe(0);
    expect(m.types.get("cereal_round_step_seconds")).toBe("histogram");
    for (const step of ["freeze", "load", "fit", "estimate", "acquire", "store"]) expect(sampleValue(m, "cereal_round_step_seconds_count", { step })).toBe(fits + 1);
    expect(sampleValue(m, "cereal_worker_restarts_total")).toBe(2);
    expect(m.types.get("cereal_worker_restarts_total")).toBe("counter");
  });
});
