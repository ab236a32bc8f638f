import { z } from "zod";
import { db } from "../db";
import { defineJob } from "../jobs/definition";
import { enqueueUniqueJob } from "../jobs/queue";
import { roundOutcome, runRound } from "./round-steps";
import { notifyRoundCompleted, notifyRoundFailed } from "../webhooks/events";

/**
 * The round job, and when rounds run. Round r estimates from every settled label and draws
 * batch r + 1; it is queued once batch r is full and every task in it is done, and only after
 * round r - 1 finished (one round per project at a time). The job's dedupe key makes queueing
 * idempotent across the web server and the worker.
 */
const roundPayload = z.object({ projectId: z.string().min(1), round: z.number().int().min(0) });

export const roundJob = defineJob({
  kind: "round",
  payload: roundPayload,
  result: roundOutcome,
  lane: "rounds",
  onePerProject: true,
  projectOf: (p) => p.projectId,
  dedupeKey: (p) => roundJobKey(p.projectId, p.round),
  // a 1,024-step FixMatch fit at 10^6 items takes minutes; two hours means the worker is stuck
  longestRunMs: 2 * 60 * 60_000,
  retry: { maxAttempts: 3, backoffMs: 5_000 },
  async run({ job, payload, deps, signal, progress }) {
    const outcome = await runRound({ ...payload, jobId: job.id, deps, signal, progress });
    await notifyRoundCompleted(payload.projectId, payload.round);
    await maybeEnqueueRound(payload.projectId);
    return outcome;
  },
  // The last attempt failed: the Round row shows the error too (the job keeps it, retryable).
  async onFailed({ projectId, round }, message) {
    await db().round.updateMany({ where: { projectId, index: round, status: { not: "done" } }, data: { status: "failed", error: message } });
    await notifyRoundFailed(projectId, round, message);
  },
});

export const roundJobKey = (projectId: string, round: number) => `round:${projectId}:${round}`;

/** The round that runs next: one past the last finished round. */
export async function nextRoundIndex(projectId: string): Promise<number> {
  const last = await db().round.findFirst({ where: { projectId, status: "done" }, orderBy: { index: "desc" }, select: { index: true } });
  return (last?.index ?? -1) + 1;
}

/** Is batch `index` full and every task in it answered? */
export async function batchComplete(projectId: string, index: number): Promise<boolean> {
  const batch = await db().batch.findUnique({ where: { projectId_index: { projectId, index } }, include: { _count: { select: { tasks: true } } } });
  if (!batch || batch._count.tasks < batch.size) return false;
  return (await db().task.count({ where: { batchId: batch.id, done: false } })) === 0;
}

export async function maybeEnqueueRound(projectId: string): Promise<boolean> {
  const round = await nextRoundIndex(projectId);
  const busy = await db().job.count({ where: { projectId, kind: roundJob.kind, status: { in: ["queued", "running"] } } });
  if (busy > 0 || !(await batchComplete(projectId, round))) return false;
  // A round the owner cancelled keeps its job (status cancelled) until the owner retries it.
  return (await enqueueUniqueJob(roundJob, { projectId, round })) !== null;
}

/** An undo reopened a batch: a round queued for it (not yet started) is withdrawn; it is queued again when the batch completes. */
export async function cancelQueuedRound(projectId: string) {
  const round = await nextRoundIndex(projectId);
  if (await batchComplete(projectId, round)) return;
  await db().job.deleteMany({ where: { dedupeKey: roundJobKey(projectId, round), status: "queued" } });
}
