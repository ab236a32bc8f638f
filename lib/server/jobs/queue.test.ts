import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "../db";
import { createTestProject } from "../projects/test-projects";
import { defineJob, JOB_LEASE_MS, type JobDefinition } from "./definition";
import { claimJob, enqueueJob, enqueueUniqueJob, jobPayload, MAX_JOB_RELEASES, releaseJobsOf, retryJob } from "./queue";
import { releaseDeadWorker, runOneJob } from "./worker-loop";

const noSurrogate = { createSurrogate: async () => Promise.reject(new Error("no surrogate in these tests")) };

/** A test job kind: a payload of { x }, the handler given. */
function testJob(kind: string, run: JobDefinition<z.ZodObject<{ x: z.ZodNumber }>>["run"], options: Partial<Pick<JobDefinition, "retry" | "longestRunMs" | "onePerProject">> = {}) {
  return defineJob({
    kind,
    payload: z.object({ x: z.number(), projectId: z.string().optional() }),
    result: z.unknown(),
    lane: "heavy",
    onePerProject: options.onePerProject ?? false,
    projectOf: () => null,
    dedupeKey: (p) => `${kind}:${p.x}`,
    longestRunMs: options.longestRunMs ?? 60_000,
    retry: options.retry ?? { maxAttempts: 3, backoffMs: 5_000 },
    run,
  });
}
const idle = async () => ({});

describe("job queue", () => {
  it("gives a job to exactly one of several concurrent claimers", async () => {
    const race = testJob("race", idle);
    const job = await enqueueJob(race, { x: 1 });
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimJob(`w${i}`, [race])));
    const winners = claims.filter((c) => c?.id === job.id);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.attempts).toBe(1);
  });

  it("claims a running job again once its lease expired (its worker died)", async () => {
    const lease = testJob("lease", idle);
    const job = await enqueueJob(lease, { x: 1 });
    expect((await claimJob("dead", [lease]))?.id).toBe(job.id);
    expect(await claimJob("other", [lease])).toBeNull();
    const later = new Date(Date.now() + JOB_LEASE_MS + 1000);
    const again = await claimJob("other", [lease], later);
    expect(again).toMatchObject({ id: job.id, leaseOwner: "other", attempts: 2 });
  });

  it("claims exactly the row a dispatch names, not an older runnable one", async () => {
    const named = testJob("named", async ({ payload }) => ({ ran: payload.x }));
    const older = await enqueueJob(named, { x: 1 });
    const dispatched = await enqueueJob(named, { x: 2 });
    const claimed = await claimJob("w", [named], new Date(), dispatched.id);
    expect(claimed).toMatchObject({ id: dispatched.id, status: "running", leaseOwner: "w" });
    expect(await db().job.findUniqueOrThrow({ where: { id: older.id } })).toMatchObject({ status: "queued", leaseOwner: null });
    // run through the worker loop, the named row's payload is the one run and its row the one finished
    const third = await enqueueJob(named, { x: 3 });
    expect(await runOneJob("w", { deps: noSurrogate, jobs: [named], jobId: third.id })).toBe(true);
    expect(await db().job.findUniqueOrThrow({ where: { id: third.id } })).toMatchObject({ status: "done", result: { ran: 3 } });
    expect(await db().job.findUniqueOrThrow({ where: { id: older.id } })).toMatchObject({ status: "queued" });
  });

  it("runs a handler, stores its result, and keeps a failure's error after the last attempt", async () => {
    const ok = testJob("ok", async ({ payload }) => ({ doubled: payload.x * 2 }));
    const boom = testJob("boom", async () => Promise.reject(new Error("the bundle file is missing")), { retry: { maxAttempts: 1, backoffMs: 0 } });
    await enqueueJob(ok, { x: 2 });
    expect(await runOneJob("w", { deps: noSurrogate, jobs: [ok, boom] })).toBe(true);
    expect(await db().job.findFirst({ where: { kind: "ok" } })).toMatchObject({ status: "done", result: { doubled: 4 } });

    const failing = await enqueueJob(boom, { x: 1 });
    await runOneJob("w", { deps: noSurrogate, jobs: [ok, boom] });
    const failed = await db().job.findUniqueOrThrow({ where: { id: failing.id } });
    expect(failed).toMatchObject({ status: "failed", error: "the bundle file is missing" });

    await retryJob(failing.id);
    expect(await db().job.findUniqueOrThrow({ where: { id: failing.id } })).toMatchObject({ status: "queued", attempts: 0, error: null });
  });

  it("requeues a failed attempt after its kind's backoff while attempts remain", async () => {
    const flaky = testJob("flaky", async () => Promise.reject(new Error("transient")), { retry: { maxAttempts: 3, backoffMs: 60_000 } });
    const job = await enqueueJob(flaky, { x: 1 });
    await runOneJob("w", { deps: noSurrogate, jobs: [flaky] });
    const row = await db().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "queued", attempts: 1, error: "transient" });
    expect(row.runAfter.getTime()).toBeGreaterThan(Date.now() + 30_000);
  });

  it("adds a job with an existing dedupe key only once", async () => {
    const unique = testJob("unique", idle);
    expect(await enqueueUniqueJob(unique, { x: 7 })).not.toBeNull();
    expect(await enqueueUniqueJob(unique, { x: 7 })).toBeNull();
    expect(await db().job.count({ where: { kind: "unique" } })).toBe(1);
  });

  it("stops a job that runs past its longest run and counts the attempt as failed", async () => {
    const stuck = testJob(
      "stuck",
      ({ signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
      { longestRunMs: 30, retry: { maxAttempts: 1, backoffMs: 0 } },
    );
    const job = await enqueueJob(stuck, { x: 1 });
    await runOneJob("w", { deps: noSurrogate, jobs: [stuck] });
    expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).error).toMatch(/ran past its longest legitimate run time/);
  });

  it("runs one job per project at a time for kinds that say so", async () => {
    const exclusive = defineJob({ ...testJob("exclusive", idle), onePerProject: true, projectOf: (p) => p.projectId ?? null });
    const { projectId } = await createTestProject();
    const first = await enqueueJob(exclusive, { x: 1, projectId });
    const second = await enqueueJob(exclusive, { x: 2, projectId });
    expect((await claimJob("w1", [exclusive]))?.id).toBe(first.id);
    // the second waits while the first holds its lease ...
    expect(await claimJob("w2", [exclusive])).toBeNull();
    // ... and runs once the first is done
    await db().job.update({ where: { id: first.id }, data: { status: "done" } });
    expect((await claimJob("w2", [exclusive]))?.id).toBe(second.id);
  });
});

describe("the worker loop's stop signal", () => {
  it("carries no listener of a finished job: 25 jobs, done or failed, leave it as they found it", async () => {
    const quick = testJob("quick", async ({ payload }) => (payload.x % 2 ? Promise.reject(new Error("odd")) : {}), { retry: { maxAttempts: 1, backoffMs: 0 } });
    const worker = new AbortController();
    for (let x = 0; x < 25; x++) {
      await enqueueJob(quick, { x });
      expect(await runOneJob("listener-worker", { deps: noSurrogate, jobs: [quick], signal: worker.signal })).toBe(true);
    }
    expect(await db().job.count({ where: { kind: "quick", status: { in: ["done", "failed"] } } })).toBe(25);
    // one listener per job left behind was the MaxListenersExceededWarning of a long-running worker
    expect(getEventListeners(worker.signal, "abort")).toHaveLength(0);
  });
});

describe("a worker told to stop (SIGTERM)", () => {
  it("hands back a job still running after the grace period: queued again at once, the attempt not counted", async () => {
    const worker = new AbortController();
    const slow = testJob("slow", ({ signal }) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("stopped")))));
    const job = await enqueueJob(slow, { x: 1 });
    const running = runOneJob("draining-worker", { deps: noSurrogate, jobs: [slow], signal: worker.signal, graceMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    worker.abort();
    expect(await running).toBe(true);
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "queued", attempts: 0, releases: 0, leaseOwner: null, leaseUntil: null, error: null });
  });

  it("lets a job that ends within the grace period finish", async () => {
    const worker = new AbortController();
    const quick = testJob("quick-enough", () => new Promise((resolve) => setTimeout(() => resolve({}), 300)));
    const job = await enqueueJob(quick, { x: 1 });
    const running = runOneJob("draining-worker", { deps: noSurrogate, jobs: [quick], signal: worker.signal, graceMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    worker.abort();
    expect(await running).toBe(true);
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "done", attempts: 1 });
  });
});

describe("jobs of a worker known to be dead", () => {
  it("go back to the queue at once, the attempt not counted, and only that worker's", async () => {
    const released = testJob("released", idle);
    const mine = await enqueueJob(released, { x: 1 });
    const theirs = await enqueueJob(released, { x: 2 });
    expect((await claimJob("dead-worker", [released]))?.id).toBe(mine.id);
    expect((await claimJob("live-worker", [released]))?.id).toBe(theirs.id);
    const now = new Date();
    expect(await releaseJobsOf("dead-worker", now)).toEqual({ requeued: [mine.id], failed: [] });
    expect(await db().job.findUniqueOrThrow({ where: { id: mine.id } })).toMatchObject({ status: "queued", leaseOwner: null, leaseUntil: null, attempts: 0, releases: 1, releasedAt: now });
    expect(await db().job.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ status: "running", leaseOwner: "live-worker" });
    // claimable now, long before the dead worker's lease would have run out
    expect((await claimJob("restarted", [released], now))?.id).toBe(mine.id);
  });

  it("fail a job that keeps killing its worker after MAX_JOB_RELEASES deaths, with an error saying so", async () => {
    const killer = testJob("killer", idle);
    const job = await enqueueJob(killer, { x: 1 });
    for (let death = 1; death < MAX_JOB_RELEASES; death++) {
      expect((await claimJob(`killed-${death}`, [killer]))?.id).toBe(job.id);
      expect((await releaseJobsOf(`killed-${death}`)).requeued).toEqual([job.id]);
    }
    expect((await claimJob("killed-last", [killer]))?.id).toBe(job.id);
    const { requeued, failed } = await releaseJobsOf("killed-last");
    expect(requeued).toEqual([]);
    expect(failed.map((j) => j.id)).toEqual([job.id]);
    const row = await db().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "failed", releases: MAX_JOB_RELEASES, attempts: 1, leaseOwner: null });
    expect(row.error).toBe(`The worker process died ${MAX_JOB_RELEASES} times while running this job (the last time just now); it is not run again. Check the worker's log lines for why it died, then retry the job.`);
    // a retry starts the count over
    await retryJob(job.id);
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "queued", releases: 0, attempts: 0 });
  });
});

describe("a dead worker's jobs, through the worker loop", () => {
  it("tells the kind's onFailed about a job failed for killing its workers, and requeues the others", async () => {
    const told: string[] = [];
    const fragile = defineJob({ ...testJob("fragile", idle), onFailed: async (payload, message) => void told.push(`${payload.x}: ${message}`) });
    const doomed = await enqueueJob(fragile, { x: 1 });
    const spared = await enqueueJob(fragile, { x: 2 });
    await db().job.update({ where: { id: doomed.id }, data: { releases: MAX_JOB_RELEASES - 1 } });
    expect((await claimJob("fragile-worker", [fragile]))?.id).toBe(doomed.id);
    expect((await claimJob("fragile-worker", [fragile]))?.id).toBe(spared.id);
    expect(await releaseDeadWorker("fragile-worker", [fragile])).toEqual({ requeued: [spared.id], failed: [doomed.id] });
    expect(told).toEqual([`1: The worker process died ${MAX_JOB_RELEASES} times while running this job (the last time just now); it is not run again. Check the worker's log lines for why it died, then retry the job.`]);
  });
});

describe("typed payloads", () => {
  const typed = testJob("typed", async ({ payload }) => ({ x: payload.x }));

  it("rejects a payload failing its schema at enqueue, naming the kind", async () => {
    await expect(enqueueJob(typed, { x: "two" } as unknown as { x: number })).rejects.toThrow(/Job 'typed': invalid payload: x: .*number/);
    expect(await db().job.count({ where: { kind: "typed" } })).toBe(0);
  });

  it("fails a stored payload failing its schema at run, at once and naming the kind", async () => {
    const job = await db().job.create({ data: { kind: "typed", payload: { y: 1 }, maxAttempts: 3 } });
    await runOneJob("w", { deps: noSurrogate, jobs: [typed] });
    const row = await db().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/^Job 'typed': invalid payload: x: /);
    expect(() => jobPayload(typed, row)).toThrow(/Job 'typed'/);
  });
});
