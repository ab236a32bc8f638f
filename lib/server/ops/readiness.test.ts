import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as health from "@/app/api/health/route";
import * as ready from "@/app/api/ready/route";
import { db } from "../db";
import { runWorker } from "../jobs/worker-loop";
import { fastWorkerDeps } from "../labeling/labeling-test-fixture";
import { requestAs, routeContext } from "../http/test-requests";
import { WORKER_STALE_MS } from "./worker-heartbeat";

async function getReady() {
  const response = await ready.GET(await requestAs(null, "/api/ready"), routeContext());
  return { status: response.status, body: await response.json() };
}

/** A worker that runs no job kinds: its heartbeat is what these tests watch. Stopped after each test at the latest. */
let running: Promise<void> | null = null;
let controller = new AbortController();

async function startWorker() {
  controller = new AbortController();
  running = runWorker({ deps: fastWorkerDeps, jobs: [], signal: controller.signal, pollMs: 10 });
  while ((await db().workerHeartbeat.count({ where: { stoppedAt: null } })) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return { stop: stopWorker };
}

async function stopWorker() {
  controller.abort();
  await running;
  running = null;
}

afterEach(stopWorker);

beforeEach(async () => {
  await db().workerHeartbeat.deleteMany({});
  await db().job.deleteMany({});
});

describe("health and readiness", () => {
  it("answers /api/health without a session and without details", async () => {
    const response = await health.GET(await requestAs(null, "/api/health"), routeContext());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("is ready while a worker runs, and not ready once it is stopped", async () => {
    expect(await getReady()).toMatchObject({ status: 503, body: { ready: false, checks: { database: true, migrations: true, worker: false } } });
    const worker = await startWorker();
    expect(await getReady()).toEqual({
      status: 200,
      body: { ready: true, checks: { database: true, migrations: true, worker: true }, queue: { rounds: { depth: 0, oldestAgeSeconds: 0 }, heavy: { depth: 0, oldestAgeSeconds: 0 } } },
    });
    await worker.stop();
    expect(await db().workerHeartbeat.findFirstOrThrow()).toMatchObject({ stoppedAt: expect.any(Date) });
    expect(await getReady()).toMatchObject({ status: 503, body: { ready: false, checks: { worker: false } } });
  });

  it("is not ready when the worker's heartbeat is older than a minute (a hung or killed worker)", async () => {
    await startWorker();
    await db().workerHeartbeat.updateMany({ data: { seenAt: new Date(Date.now() - WORKER_STALE_MS - 1000) } });
    expect(await getReady()).toMatchObject({ status: 503, body: { checks: { worker: false } } });
  });

  it("is not ready while a committed migration is not applied, and reports the queue per lane", async () => {
    await startWorker();
    const [last] = await db().$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1`);
    await db().$executeRaw`UPDATE "_prisma_migrations" SET rolled_back_at = CURRENT_TIMESTAMP WHERE id = ${last.id}`;
    try {
      expect(await getReady()).toMatchObject({ status: 503, body: { checks: { database: true, migrations: false, worker: true } } });
    } finally {
      await db().$executeRaw`UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE id = ${last.id}`;
    }
    await db().job.create({ data: { kind: "simulate", payload: {}, createdAt: new Date(Date.now() - 120_000) } });
    const { status, body } = await getReady();
    expect(status).toBe(200);
    expect(body.queue.heavy.depth).toBe(1);
    expect(body.queue.heavy.oldestAgeSeconds).toBeGreaterThanOrEqual(120);
    expect(body.queue.rounds.depth).toBe(0);
  });
});
