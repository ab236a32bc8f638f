import http from "node:http";
import { readdir, readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as projectWebhookRoute from "@/app/api/projects/[projectId]/webhook/route";
import * as meWebhookRoute from "@/app/api/me/webhook/route";
import * as redeliverRoute from "@/app/api/webhook-deliveries/[deliveryId]/redeliver/route";
import * as progressRoute from "@/app/api/projects/[projectId]/progress/route";
import * as projectsRoute from "@/app/api/projects/route";
import { db } from "../db";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { DIGITS, digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { runOneJob } from "../jobs/worker-loop";
import { guardedLookup, isPrivateAddress } from "./safe-target";
import { verifyWebhook } from "./signing";
import { notifyRoundCompleted } from "./events";
import { roundJob } from "../rounds/round-job";

/** A receiver on loopback that answers each request with the next status of its script. */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
let receiver: http.Server;
let received: Received[] = [];
let script: number[] = [];
let receiverUrl = "";

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      const status = script.shift() ?? 200;
      if (status === 302) response.writeHead(302, { location: "http://127.0.0.1:9/elsewhere" }).end();
      else response.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "thanks" : `receiver says ${status}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

beforeEach(async () => {
  received = [];
  script = [];
  process.env.CEREAL_WEBHOOK_ALLOW_PRIVATE = "1";
  await db().job.deleteMany({});
});
afterEach(() => {
  delete process.env.CEREAL_WEBHOOK_ALLOW_PRIVATE;
});

type User = { id: string; sessionVersion: number };
const asRow = (id: string) => db().user.findUniqueOrThrow({ where: { id } });

async function setProjectWebhook(owner: User, projectId: string, url = receiverUrl) {
  const response = await projectWebhookRoute.PUT(await requestAs(owner, `/api/projects/${projectId}/webhook`, { method: "PUT", json: { url } }), routeContext({ projectId }));
  expect(response.status).toBe(200);
  return (await response.json()) as { webhook: { id: string; secret: string } };
}

async function webhookLog(owner: User, projectId: string) {
  const response = await projectWebhookRoute.GET(await requestAs(owner, `/api/projects/${projectId}/webhook`), routeContext({ projectId }));
  return (await response.json()) as { deliveries: { id: string; event: string; status: string; attempts: { statusCode: number | null; latencyMs: number; excerpt: string }[] }[] };
}

/** Runs queued jobs, making retries due at once (their backoff is the queue's business, not the test's). */
async function drain(max = 10) {
  for (let i = 0; i < max; i++) {
    await db().job.updateMany({ where: { status: "queued" }, data: { runAfter: new Date(0) } });
    if (!(await runOneJob("webhook-test", { deps: fastWorkerDeps }))) return;
  }
}

/** A digits project whose seed batch is labeled and round 0 has run (its webhook events queued). */
async function projectWithRound() {
  const fixture = await digitsProject({ seedSize: 20 });
  const owner = await asRow(fixture.owner.id);
  const { webhook } = await setProjectWebhook(owner, fixture.projectId);
  await labelAll(fixture.annotators[0], fixture.projectId, fixture.truth, 20);
  expect(await runOneJob("webhook-test", { deps: fastWorkerDeps })).toBe(true);
  return { ...fixture, owner, webhook };
}

describe("webhooks", () => {
  it("delivers round.completed signed per Standard Webhooks, with the estimates the API shows", async () => {
    const { projectId, owner, webhook } = await projectWithRound();
    await drain();
    const [event] = received;
    expect(received).toHaveLength(1);
    const headers = { id: String(event.headers["webhook-id"]), timestamp: String(event.headers["webhook-timestamp"]), signature: String(event.headers["webhook-signature"]) };
    expect(headers.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(headers.timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(verifyWebhook(webhook.secret, headers, event.body)).toBe(true);
    expect(verifyWebhook(webhook.secret, headers, event.body.replace("round.completed", "round.failed"))).toBe(false);

    const body = JSON.parse(event.body) as { type: string; data: { projectId: string; round: number; nLabels: number; estimates: unknown } };
    expect(body.type).toBe("round.completed");
    expect(body.data).toMatchObject({ projectId, round: 0, nLabels: 20 });
    const progress = await (await progressRoute.GET(await requestAs(owner, `/api/projects/${projectId}/progress`), routeContext({ projectId }))).json();
    expect(body.data.estimates).toEqual(progress.estimates);
    expect(Object.keys(body.data.estimates as object).length).toBeGreaterThan(0);

    const log = await webhookLog(owner, projectId);
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ id: headers.id, event: "round.completed", status: "delivered", attempts: [{ statusCode: 200, excerpt: "thanks" }] });
  });

  it("retries with backoff: a receiver answering 500 twice then 200 gets it on the third try, and the log shows all three", async () => {
    const { projectId, owner } = await projectWithRound();
    script = [500, 500, 200];
    await runOneJob("webhook-test", { deps: fastWorkerDeps });
    const retry = await db().job.findFirstOrThrow({ where: { kind: "webhook" } });
    expect(retry).toMatchObject({ status: "queued", attempts: 1 });
    expect(retry.runAfter.getTime()).toBeGreaterThan(Date.now());
    await drain();
    expect(received.map((r) => r.headers["webhook-id"])).toEqual(Array(3).fill(received[0].headers["webhook-id"]));
    const [delivery] = (await webhookLog(owner, projectId)).deliveries;
    expect(delivery.status).toBe("delivered");
    expect(delivery.attempts.map((a) => [a.statusCode, a.excerpt])).toEqual([
      [500, "receiver says 500"],
      [500, "receiver says 500"],
      [200, "thanks"],
    ]);
    expect(delivery.attempts.every((a) => Number.isInteger(a.latencyMs) && a.latencyMs >= 0)).toBe(true);

    // the redeliver button sends the same event again
    const again = await redeliverRoute.POST(await requestAs(owner, `/api/webhook-deliveries/${delivery.id}/redeliver`, { method: "POST" }), routeContext({ deliveryId: delivery.id }));
    expect(again.status).toBe(200);
    await drain();
    expect(received).toHaveLength(4);
    expect(received[3].body).toBe(received[0].body);
    expect((await webhookLog(owner, projectId)).deliveries[0].attempts).toHaveLength(4);
    // only the project's owners may redeliver
    const stranger = await createTestUser("RESEARCHER");
    const refused = await redeliverRoute.POST(await requestAs(stranger, `/api/webhook-deliveries/${delivery.id}/redeliver`, { method: "POST" }), routeContext({ deliveryId: delivery.id }));
    expect(refused.status).toBe(403);
  });

  it("refuses loopback and private targets unless CEREAL_WEBHOOK_ALLOW_PRIVATE=1, checked on the resolved address, and follows no redirect", async () => {
    const { projectId, owner } = await projectWithRound();
    delete process.env.CEREAL_WEBHOOK_ALLOW_PRIVATE;
    await drain(1);
    expect(received).toHaveLength(0);
    const [refused] = (await webhookLog(owner, projectId)).deliveries;
    expect(refused.attempts[0]).toMatchObject({ statusCode: null });
    expect(refused.attempts[0].excerpt).toMatch(/127\.0\.0\.1 is 127\.0\.0\.1, a loopback or private address.*CEREAL_WEBHOOK_ALLOW_PRIVATE=1/);

    // a name is checked once resolved: localhost is refused at connect time
    const lookup = await new Promise<Error | null>((resolve) => guardedLookup("localhost", { all: true }, (error) => resolve(error)));
    expect(lookup?.message).toMatch(/localhost is (127\.0\.0\.1|::1), a loopback or private address/);
    for (const address of ["10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "::1", "fd00::1", "::ffff:127.0.0.1", "100.64.0.1"]) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["93.184.216.34", "2606:4700::1111", "8.8.8.8"]) expect(isPrivateAddress(address), address).toBe(false);

    // a redirect is an answer that was not a 2xx: not followed, retried as a failure
    process.env.CEREAL_WEBHOOK_ALLOW_PRIVATE = "1";
    await db().job.deleteMany({});
    script = [302];
    await notifyRoundCompleted(projectId, 0);
    await drain(1);
    expect(received).toHaveLength(1);
    const [redirected] = (await webhookLog(owner, projectId)).deliveries;
    expect(redirected.attempts[0].statusCode).toBe(302);
    expect(redirected.status).toBe("pending");
  });

  it("sends round.failed when a round's last attempt fails", async () => {
    const { projectId } = await projectWithRound();
    await drain();
    received = [];
    await roundJob.onFailed!({ projectId, round: 1 }, "The surrogate ran out of memory.");
    await drain();
    expect(received.map((r) => JSON.parse(r.body))).toEqual([{ type: "round.failed", timestamp: expect.any(String), data: { projectId, round: 1, error: "The surrogate ran out of memory." } }]);
  });

  it("sends stop_rule.met once per transition to converged, per clustering and metric", async () => {
    const { projectId, owner } = await projectWithRound();
    await drain();
    received = [];
    // three more rounds whose kmeans_k10 NMI interval is narrow and still: converged
    const clustering = await db().clustering.findFirstOrThrow({ where: { projectId, name: "kmeans_k10" } });
    const round0 = await db().round.findFirstOrThrow({ where: { projectId, index: 0 } });
    const addRound = async (index: number, width: number) => {
      const round = await db().round.create({
        data: { projectId, index, nLabels: 20 + index * 10, status: "done", config: round0.config ?? {}, seed: 0, codeVersion: "test", finishedAt: new Date() },
      });
      await db().estimate.create({ data: { roundId: round.id, clusteringId: clustering.id, metric: "nmi", value: 0.7, lo: 0.7 - width / 2, hi: 0.7 + width / 2, pBest: 1 } });
    };
    await db().estimate.updateMany({ where: { roundId: round0.id, clusteringId: clustering.id, metric: "nmi" }, data: { value: 0.7, lo: 0.695, hi: 0.705 } });
    for (const index of [1, 2, 3]) {
      await addRound(index, 0.01);
      await notifyRoundCompleted(projectId, index);
      await drain();
    }
    const met = () => received.map((r) => JSON.parse(r.body) as { type: string; data: { clustering: string; metric: string; round: number } }).filter((b) => b.type === "stop_rule.met");
    expect(met().map((b) => [b.data.clustering, b.data.metric, b.data.round])).toEqual([["kmeans_k10", "nmi", 3]]);
    // it stays converged (round 4): no second event; it widens (round 5), then is narrow again (6, 7, 8): one more, at 6
    await addRound(4, 0.01);
    await notifyRoundCompleted(projectId, 4);
    await addRound(5, 0.5);
    await notifyRoundCompleted(projectId, 5);
    for (const index of [6, 7, 8]) {
      await addRound(index, 0.01);
      await notifyRoundCompleted(projectId, index);
    }
    await drain(30);
    expect(met().map((b) => b.data.round)).toEqual([3, 6]);
    expect((await webhookLog(owner, projectId)).deliveries.filter((d) => d.event === "stop_rule.met").every((d) => d.status === "delivered")).toBe(true);
  });

  it("tells a user's own webhook about a failed import (which leaves no project) and a finished one", async () => {
    const user = await createTestUser("RESEARCHER");
    const put = await meWebhookRoute.PUT(await requestAs(user, "/api/me/webhook", { method: "PUT", json: { url: receiverUrl } }), routeContext());
    const { webhook } = (await put.json()) as { webhook: { secret: string } };
    const upload = async (files: Record<string, Uint8Array>, name: string) => {
      const form = new FormData();
      form.append("name", name);
      for (const [file, bytes] of Object.entries(files)) form.append("files", new Blob([bytes as BlobPart]), file);
      return projectsRoute.POST(await requestAs(user, "/api/projects", { method: "POST", body: form }), routeContext());
    };
    expect((await upload({ "manifest.json": new TextEncoder().encode("{}") }, "Broken")).status).toBe(400);
    const files: Record<string, Uint8Array> = {};
    const walk = async (dir: string, prefix = ""): Promise<void> => {
      for (const e of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
        const rel = path.posix.join(prefix, e.name);
        if (e.isDirectory()) await walk(dir, rel);
        else files[rel] = await readFile(path.join(dir, rel));
      }
    };
    await walk(DIGITS);
    const done = await upload(files, "Digits by script");
    expect(done.status).toBe(200);
    const { projectId } = ((await done.json()) as { import: { projectId: string } }).import;
    await drain();
    const events = received.map((r) => ({ ok: verifyWebhook(webhook.secret, { id: String(r.headers["webhook-id"]), timestamp: String(r.headers["webhook-timestamp"]), signature: String(r.headers["webhook-signature"]) }, r.body), ...(JSON.parse(r.body) as { type: string; data: Record<string, unknown> }) }));
    expect(events.map((e) => [e.type, e.ok])).toEqual([
      ["import.failed", true],
      ["import.completed", true],
    ]);
    expect(events[0].data).toMatchObject({ name: "Broken" });
    expect(String(events[0].data.error)).toMatch(/manifest/i);
    expect(events[1].data).toMatchObject({ projectId, name: "Digits by script", bundleName: "digits", n: 1797 });
  });

  it("refuses a URL that is not http(s), saying what to give", async () => {
    const { projectId, owner } = await digitsProject().then(async (f) => ({ ...f, owner: await asRow(f.owner.id) }));
    const response = await projectWebhookRoute.PUT(await requestAs(owner, `/api/projects/${projectId}/webhook`, { method: "PUT", json: { url: "ftp://example.org/x" } }), routeContext({ projectId }));
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/http:\/\/ or https:\/\//);
  });
});
