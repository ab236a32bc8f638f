import { randomUUID } from "node:crypto";
import { db } from "./db";
import type { Job } from "@/lib/generated/prisma/client";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The job table as a queue. A claim is one conditional update (status and lease checked in the
 * WHERE clause), so two workers never run the same job; a worker that dies stops renewing its
 * lease and the job is claimed again, until maxAttempts, after which it stays failed with its error.
 */
export const LEASE_MS = 60_000;

export async function enqueueJob(kind: string, payload: Prisma.InputJsonValue, options: { projectId?: string; maxAttempts?: number } = {}) {
  return db().job.create({ data: { kind, payload, projectId: options.projectId, maxAttempts: options.maxAttempts ?? 3 } });
}

/** Adds a job unless one with the same key exists (then returns null): safe from two processes. */
export async function enqueueUniqueJob(dedupeKey: string, kind: string, payload: Prisma.InputJsonValue, options: { projectId?: string; maxAttempts?: number } = {}) {
  try {
    return await db().job.create({ data: { kind, payload, dedupeKey, projectId: options.projectId, maxAttempts: options.maxAttempts ?? 3 } });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return null;
    throw error;
  }
}

/** Claims the oldest runnable job of the given kinds, or returns null. */
export async function claimJob(owner: string, kinds: string[], now = new Date()): Promise<Job | null> {
  const runnable = {
    kind: { in: kinds },
    OR: [
      { status: "queued", runAfter: { lte: now } },
      { status: "running", leaseUntil: { lt: now } },
    ],
  };
  for (let tries = 0; tries < 5; tries++) {
    const candidate = await db().job.findFirst({ where: runnable, orderBy: { createdAt: "asc" }, select: { id: true, attempts: true, maxAttempts: true, status: true } });
    if (!candidate) return null;
    if (candidate.status === "running" && candidate.attempts >= candidate.maxAttempts) {
      // Its worker died on the last allowed attempt: keep it failed instead of retrying forever.
      await db().job.updateMany({
        where: { id: candidate.id, status: "running", leaseUntil: { lt: now } },
        data: { status: "failed", error: "The worker stopped while running this job (attempts exhausted).", finishedAt: now, leaseOwner: null },
      });
      continue;
    }
    const { count } = await db().job.updateMany({
      where: { id: candidate.id, ...runnable },
      data: { status: "running", leaseOwner: owner, leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: { increment: 1 } },
    });
    if (count === 1) return db().job.findUniqueOrThrow({ where: { id: candidate.id } });
  }
  return null;
}

/** Extends the lease; false when the job is no longer ours (cancelled or taken over). */
export async function renewLease(jobId: string, owner: string, progress?: Prisma.InputJsonValue): Promise<boolean> {
  const { count } = await db().job.updateMany({
    where: { id: jobId, leaseOwner: owner, status: "running" },
    data: { leaseUntil: new Date(Date.now() + LEASE_MS), ...(progress === undefined ? {} : { progress }) },
  });
  return count === 1;
}

export async function completeJob(jobId: string, owner: string, result: Prisma.InputJsonValue) {
  await db().job.updateMany({
    where: { id: jobId, leaseOwner: owner, status: "running" },
    data: { status: "done", result, leaseOwner: null, leaseUntil: null, finishedAt: new Date(), error: null },
  });
}

/** A failed attempt goes back to the queue with a backoff while attempts remain. */
export async function failJob(job: Job, owner: string, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  const retry = job.attempts < job.maxAttempts;
  await db().job.updateMany({
    where: { id: job.id, leaseOwner: owner, status: "running" },
    data: retry
      ? { status: "queued", error: message, leaseOwner: null, leaseUntil: null, runAfter: new Date(Date.now() + 5_000 * job.attempts) }
      : { status: "failed", error: message, leaseOwner: null, leaseUntil: null, finishedAt: new Date() },
  });
}

/** Puts a failed or cancelled job back in the queue with a fresh attempt budget. */
export async function retryJob(jobId: string) {
  return db().job.updateMany({ where: { id: jobId, status: { in: ["failed", "cancelled"] } }, data: { status: "queued", attempts: 0, runAfter: new Date(), error: null, finishedAt: null } });
}

export async function cancelJob(jobId: string) {
  return db().job.updateMany({
    where: { id: jobId, status: { in: ["queued", "running"] } },
    data: { status: "cancelled", leaseOwner: null, leaseUntil: null, finishedAt: new Date() },
  });
}

export const newWorkerId = () => `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
