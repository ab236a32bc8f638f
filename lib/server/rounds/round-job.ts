import { db } from "./db";
import { enqueueUniqueJob } from "./jobs";

/**
 * When rounds run. Round r estimates from every settled label and draws batch r + 1; it is
 * queued once batch r is full and every task in it is done, and only after round r - 1
 * finished (one round per project at a time). The job's dedupe key makes queueing idempotent
 * across the web server and the worker.
 */
export const ROUND_JOB = "round";
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
  const busy = await db().job.count({ where: { projectId, kind: ROUND_JOB, status: { in: ["queued", "running"] } } });
  if (busy > 0 || !(await batchComplete(projectId, round))) return false;
  // A round the owner cancelled keeps its job (status cancelled) until the owner retries it.
  return (await enqueueUniqueJob(roundJobKey(projectId, round), ROUND_JOB, { projectId, round }, { projectId })) !== null;
}

/** An undo reopened a batch: a round queued for it (not yet started) is withdrawn; it is queued again when the batch completes. */
export async function cancelQueuedRound(projectId: string) {
  const round = await nextRoundIndex(projectId);
  if (await batchComplete(projectId, round)) return;
  await db().job.deleteMany({ where: { dedupeKey: roundJobKey(projectId, round), status: "queued" } });
}
