import { z } from "zod";
import { db, notifyProjectChanged } from "../db";
import { nullableNumber } from "../raw-values";
import { defineJob } from "../jobs/definition";
import { enqueueUniqueJob } from "../jobs/queue";
import { roundOutcome, runRound } from "./round-steps";
import { keepStagesAhead, settledThrough, stageDemand } from "../labeling/stages";
import { notifyRoundCompleted, notifyRoundFailed } from "../webhooks/events";

/**
 * The round job, and when rounds run. Round r estimates from the labels of the settled stages
 * and leaves the ranking later stages are drawn with; it is queued once it is due (roundDue),
 * and only after round r - 1 finished (one round per project at a time). The job's dedupe key makes queueing
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
    // the stages drawn from now on use this round's ranking
    await keepStagesAhead(payload.projectId);
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
  // plain SQL: every answer that finishes a task asks (issue #18)
  const [last] = await db().$queryRaw<{ index: unknown }[]>`SELECT MAX("index") AS "index" FROM "Round" WHERE "projectId" = ${projectId} AND "status" = 'done'`;
  return (nullableNumber(last?.index) ?? -1) + 1;
}

/**
 * Is a round due? Round 0 once the seed stage is settled; a later round once at least batchSize
 * labels of the settled stages (stages.ts settledThrough) are not yet used by a round, or once
 * the last labels are in (no open task, nothing left to draw). It never waits for a stage drawn
 * after those labels.
 */
export async function roundDue(projectId: string, round: number): Promise<boolean> {
  const project = await db().project.findUnique({ where: { id: projectId }, select: { id: true, n: true, mode: true, batchSize: true, budget: true, overlap: true } });
  if (!project) return false;
  const settled = await settledThrough(db(), projectId);
  if (settled < 0) return false;
  const fresh = await db().label.count({ where: { projectId, kind: "label", withdrawn: false, usedByRound: null, task: { done: true, batch: { index: { lte: settled } } } } });
  if (fresh === 0) return false;
  if (round === 0 || fresh >= project.batchSize) return true;
  if ((await db().task.count({ where: { projectId, done: false } })) > 0) return false;
  const demand = await stageDemand(db(), project, new Date());
  const everyItemDrawn = project.mode !== "pairwise" && (await db().task.count({ where: { projectId } })) >= project.n;
  return demand.roomTasks === 0 || everyItemDrawn;
}

export async function maybeEnqueueRound(projectId: string): Promise<boolean> {
  // checked on every answer: while a round is queued or running (most of the time) two short reads say no
  const active = await db().$queryRaw<{ dedupeKey: string | null }[]>`
    SELECT "dedupeKey" FROM "Job" WHERE "projectId" = ${projectId} AND "kind" = ${roundJob.kind} AND "status" IN ('queued', 'running')`;
  const round = await nextRoundIndex(projectId);
  // The job of the latest finished round may still be running (it draws the next stage, then writes its
  // result): it is not in the way. Answers given then were told no, and its own check comes before them,
  // so counting it lost the next round whenever its last labels came in that window.
  if (active.some((job) => job.dedupeKey !== roundJobKey(projectId, round - 1))) return false;
  if (!(await roundDue(projectId, round))) return false;
  // A round the owner cancelled keeps its job (status cancelled) until the owner retries it.
  const queued = (await enqueueUniqueJob(roundJob, { projectId, round })) !== null;
  if (queued) await notifyProjectChanged(db(), projectId);
  return queued;
}

/** An undo took back a label a queued round was due on: that round (not yet started) is withdrawn; it is queued again when due. */
export async function cancelQueuedRound(projectId: string) {
  const round = await nextRoundIndex(projectId);
  if (await roundDue(projectId, round)) return;
  const withdrawn = await db().job.deleteMany({ where: { dedupeKey: roundJobKey(projectId, round), status: "queued" } });
  if (withdrawn.count) await notifyProjectChanged(db(), projectId);
}
