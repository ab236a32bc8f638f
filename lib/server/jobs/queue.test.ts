import { describe, expect, it } from "vitest";
import { db } from "./db";
import { claimJob, enqueueJob, LEASE_MS, retryJob } from "./jobs";
import { runOneJob } from "./worker";

describe("job queue", () => {
  it("gives a job to exactly one of several concurrent claimers", async () => {
    const job = await enqueueJob("race", { n: 1 });
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimJob(`w${i}`, ["race"])));
    const winners = claims.filter((c) => c?.id === job.id);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.attempts).toBe(1);
  });

  it("claims a running job again once its lease expired (its worker died)", async () => {
    const job = await enqueueJob("lease", {});
    expect((await claimJob("dead", ["lease"]))?.id).toBe(job.id);
    expect(await claimJob("other", ["lease"])).toBeNull();
    const later = new Date(Date.now() + LEASE_MS + 1000);
    const again = await claimJob("other", ["lease"], later);
    expect(again).toMatchObject({ id: job.id, leaseOwner: "other", attempts: 2 });
  });

  it("runs a handler, stores its result, and keeps a failure's error after the last attempt", async () => {
    await enqueueJob("ok", { x: 2 });
    const handlers = {
      ok: async ({ job }: { job: { payload: unknown } }) => ({ doubled: (job.payload as { x: number }).x * 2 }),
      boom: async () => {
        throw new Error("the bundle file is missing");
      },
    };
    expect(await runOneJob("w", { handlers })).toBe(true);
    expect(await db().job.findFirst({ where: { kind: "ok" } })).toMatchObject({ status: "done", result: { doubled: 4 } });

    const failing = await enqueueJob("boom", {}, { maxAttempts: 1 });
    await runOneJob("w", { handlers });
    const failed = await db().job.findUniqueOrThrow({ where: { id: failing.id } });
    expect(failed).toMatchObject({ status: "failed", error: "the bundle file is missing" });

    await retryJob(failing.id);
    expect(await db().job.findUniqueOrThrow({ where: { id: failing.id } })).toMatchObject({ status: "queued", attempts: 0, error: null });
  });

  it("requeues a failed attempt with a backoff while attempts remain", async () => {
    const job = await enqueueJob("flaky", {}, { maxAttempts: 3 });
    await runOneJob("w", { handlers: { flaky: async () => Promise.reject(new Error("transient")) } });
    const row = await db().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "queued", attempts: 1, error: "transient" });
    expect(row.runAfter.getTime()).toBeGreaterThan(Date.now());
  });
});
