import { randomUUID } from "node:crypto";
import type { z, ZodType } from "zod";
import type { Job, Prisma } from "@/lib/generated/prisma/client";
import { db, lockProject, transaction } from "../db";
import { JOB_LEASE_MS, parsePayload, type JobDefinition } from "./definition";
import { dispatchJobs } from "./pg-boss";

/**
 * The embedded queue: the Job table. Enqueueing checks the payload against its kind's schema. A
 * claim is one conditional update (status and lease in the WHERE clause), so two workers never
 * run the same job; a worker that dies stops renewing its lease and the job is claimed again,
 * until its attempts run out, after which it stays failed with its error. A supervisor that saw
 * its worker die hands that worker's jobs back at once (`releaseJobsOf`) instead of waiting out
 * the lease. On PostgreSQL every row that becomes runnable is also handed to pg-boss
 * (pg-boss.ts), which wakes a worker of its lane; the claim below is the same on both databases.
 */

function jobData(definition: JobDefinition, payload: unknown) {
  const parsed = parsePayload(definition, payload);
  return {
    kind: definition.kind,
    payload: parsed as Prisma.InputJsonValue,
    projectId: definition.projectOf(parsed),
    maxAttempts: definition.retry.maxAttempts,
    dedupeKey: definition.dedupeKey?.(parsed),
  };
}

export async function enqueueJob<S extends ZodType>(definition: JobDefinition<S>, payload: z.input<S>): Promise<Job> {
  const job = await db().job.create({ data: jobData(definition, payload) });
  await dispatchJobs([job]);
  return job;
}

/** Adds a job unless one with the definition's dedupe key exists (then returns null): safe from two processes. */
export async function enqueueUniqueJob<S extends ZodType>(definition: JobDefinition<S>, payload: z.input<S>): Promise<Job | null> {
  if (!definition.dedupeKey) throw new Error(`Job '${definition.kind}' has no dedupe key; enqueue it with enqueueJob.`);
  let job: Job;
  try {
    job = await db().job.create({ data: jobData(definition, payload) });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return null;
    throw error;
  }
  await dispatchJobs([job]);
  return job;
}

/** A stored job's payload, typed by its definition (a job of another kind is a programming error). */
export function jobPayload<S extends ZodType>(definition: JobDefinition<S>, job: Pick<Job, "kind" | "payload">): z.infer<S> {
  if (job.kind !== definition.kind) throw new Error(`A '${job.kind}' job read as '${definition.kind}'.`);
  return parsePayload(definition, job.payload);
}

/** A finished job's result, typed by its definition; null while it has none. */
export function jobResult<R extends ZodType>(definition: JobDefinition<ZodType, R>, job: Pick<Job, "result">): z.infer<R> | null {
  if (job.result === null) return null;
  const parsed = definition.result.safeParse(job.result);
  return parsed.success ? parsed.data : null;
}

/** The rows a worker of these kinds could claim now: queued and due, or running under a lease that ran out (its worker died). */
const runnableWhere = (definitions: readonly JobDefinition[], now: Date) => ({
  kind: { in: definitions.map((d) => d.kind) },
  OR: [
    { status: "queued", runAfter: { lte: now } },
    { status: "running", leaseUntil: { lt: now } },
  ],
});

/**
 * Claims the oldest runnable job of the given kinds (or the one job `onlyId`, the row a pg-boss
 * dispatch names), or returns null; a kind run one per project waits while its project has one
 * running (checked and claimed in one transaction, under the project's advisory lock on
 * PostgreSQL, so two workers cannot both pass the check).
 */
export async function claimJob(owner: string, definitions: readonly JobDefinition[], now = new Date(), onlyId?: string): Promise<Job | null> {
  const onePerProject = new Set(definitions.filter((d) => d.onePerProject).map((d) => d.kind));
  const runnable = runnableWhere(definitions, now);
  const passedOver: string[] = [];
  for (let tries = 0; tries < 8; tries++) {
    const candidate = await db().job.findFirst({
      // one filter on id: the named row (a pg-boss dispatch), never one passed over
      where: { ...runnable, id: onlyId === undefined ? { notIn: passedOver } : { equals: onlyId, notIn: passedOver } },
      orderBy: { createdAt: "asc" },
      select: { id: true, kind: true, projectId: true, attempts: true, maxAttempts: true, status: true },
    });
    if (!candidate) return null;
    if (candidate.status === "running" && candidate.attempts >= candidate.maxAttempts) {
      // Its worker died on the last allowed attempt: keep it failed instead of retrying forever.
      await db().job.updateMany({
        where: { id: candidate.id, status: "running", leaseUntil: { lt: now } },
        data: { status: "failed", error: "The worker stopped while running this job (attempts exhausted).", finishedAt: now, leaseOwner: null },
      });
      continue;
    }
    const claim = { status: "running", leaseOwner: owner, leaseUntil: new Date(now.getTime() + JOB_LEASE_MS), attempts: { increment: 1 } };
    let count: number;
    if (onePerProject.has(candidate.kind) && candidate.projectId !== null) {
      const projectId = candidate.projectId;
      count = await transaction(async (tx) => {
        await lockProject(tx, projectId);
        const running = await tx.job.count({ where: { kind: candidate.kind, projectId, status: "running", leaseUntil: { gte: now }, id: { not: candidate.id } } });
        if (running > 0) return -1;
        return (await tx.job.updateMany({ where: { id: candidate.id, ...runnable }, data: claim })).count;
      });
      if (count === -1) {
        passedOver.push(candidate.id);
        continue;
      }
    } else {
      ({ count } = await db().job.updateMany({ where: { id: candidate.id, ...runnable }, data: claim }));
    }
    if (count === 1) return db().job.findUniqueOrThrow({ where: { id: candidate.id } });
  }
  return null;
}

/** Extends the lease; false when the job is no longer ours (cancelled or taken over). */
export async function renewLease(jobId: string, owner: string, progress?: Prisma.InputJsonValue): Promise<boolean> {
  const { count } = await db().job.updateMany({
    where: { id: jobId, leaseOwner: owner, status: "running" },
    data: { leaseUntil: new Date(Date.now() + JOB_LEASE_MS), ...(progress === undefined ? {} : { progress }) },
  });
  return count === 1;
}

export async function completeJob(jobId: string, owner: string, result: Prisma.InputJsonValue) {
  await db().job.updateMany({
    where: { id: jobId, leaseOwner: owner, status: "running" },
    data: { status: "done", result, leaseOwner: null, leaseUntil: null, finishedAt: new Date(), error: null },
  });
}

/**
 * A failed attempt goes back to the queue after its kind's backoff (times the attempts so far)
 * while attempts remain; `final` fails it at once (a payload that can never run). Returns true
 * when this call failed the job for good.
 */
export async function failJob(job: Job, owner: string, error: unknown, retry: JobDefinition["retry"], final = false): Promise<boolean> {
  const message = error instanceof Error ? error.message : String(error);
  const again = !final && job.attempts < job.maxAttempts;
  const runAfter = new Date(Date.now() + retry.backoffMs * job.attempts);
  const { count } = await db().job.updateMany({
    where: { id: job.id, leaseOwner: owner, status: "running" },
    data: again
      ? { status: "queued", error: message, leaseOwner: null, leaseUntil: null, runAfter }
      : { status: "failed", error: message, leaseOwner: null, leaseUntil: null, finishedAt: new Date() },
  });
  if (count === 1 && again) await dispatchJobs([{ id: job.id, kind: job.kind, runAfter }]);
  // a job cancelled (or taken over) meanwhile is not ours to fail
  return count === 1 && !again;
}

/** Puts a failed or cancelled job back in the queue with a fresh attempt budget. */
export async function retryJob(jobId: string) {
  const runAfter = new Date();
  const updated = await db().job.updateMany({ where: { id: jobId, status: { in: ["failed", "cancelled"] } }, data: { status: "queued", attempts: 0, releases: 0, runAfter, error: null, finishedAt: null } });
  if (updated.count === 1) await dispatchJobs([{ ...(await db().job.findUniqueOrThrow({ where: { id: jobId }, select: { id: true, kind: true } })), runAfter }]);
  return updated;
}

/**
 * A worker that stops (SIGTERM) while its job still runs past the grace period hands the job back:
 * queued again at once for another worker, the attempt not counted (nothing failed). False when
 * the job was no longer this worker's.
 */
export async function handBackJob(job: Pick<Job, "id" | "kind">, owner: string): Promise<boolean> {
  const runAfter = new Date();
  const { count } = await db().job.updateMany({
    where: { id: job.id, leaseOwner: owner, status: "running" },
    data: { status: "queued", leaseOwner: null, leaseUntil: null, runAfter, attempts: { decrement: 1 } },
  });
  if (count === 1) await dispatchJobs([{ id: job.id, kind: job.kind, runAfter }]);
  return count === 1;
}

/** The rows of these kinds that a worker could claim now (at most `limit`): what a sweep dispatches again on PostgreSQL. */
export async function runnableJobs(definitions: readonly JobDefinition[], limit = 100, now = new Date()) {
  return db().job.findMany({ where: runnableWhere(definitions, now), orderBy: { createdAt: "asc" }, take: limit, select: { id: true, kind: true, runAfter: true } });
}

export async function cancelJob(jobId: string) {
  return db().job.updateMany({
    where: { id: jobId, status: { in: ["queued", "running"] } },
    data: { status: "cancelled", leaseOwner: null, leaseUntil: null, finishedAt: new Date() },
  });
}

/** A job whose worker died this many times while running it fails instead of being handed back again. */
export const MAX_JOB_RELEASES = 3;

/**
 * Hands back the running jobs of a worker that is known to be gone (its supervisor saw it exit):
 * queued again at once, lease cleared, the attempt it was on not counted. A job that has already
 * been handed back MAX_JOB_RELEASES times (it keeps killing its worker) fails with a clear error.
 * Returns the ids queued again and the jobs failed (with their error).
 */
export async function releaseJobsOf(workerId: string, now = new Date()): Promise<{ requeued: string[]; failed: Job[] }> {
  const running = await db().job.findMany({ where: { leaseOwner: workerId, status: "running" }, select: { id: true, kind: true, releases: true } });
  const requeued: string[] = [];
  const failed: Job[] = [];
  for (const job of running) {
    const ours = { id: job.id, leaseOwner: workerId, status: "running" };
    if (job.releases + 1 >= MAX_JOB_RELEASES) {
      const { count } = await db().job.updateMany({
        where: ours,
        data: {
          status: "failed",
          error: `The worker process died ${job.releases + 1} times while running this job (the last time just now); it is not run again. Check the worker's log lines for why it died, then retry the job.`,
          leaseOwner: null,
          leaseUntil: null,
          releases: { increment: 1 },
          releasedAt: now,
          finishedAt: now,
        },
      });
      if (count === 1) failed.push(await db().job.findUniqueOrThrow({ where: { id: job.id } }));
    } else {
      const { count } = await db().job.updateMany({
        where: ours,
        data: { status: "queued", leaseOwner: null, leaseUntil: null, runAfter: now, attempts: { decrement: 1 }, releases: { increment: 1 }, releasedAt: now },
      });
      if (count === 1) requeued.push(job.id);
    }
  }
  await dispatchJobs(running.filter((job) => requeued.includes(job.id)).map((job) => ({ id: job.id, kind: job.kind, runAfter: now })));
  return { requeued, failed };
}

export const newWorkerId = () => `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
