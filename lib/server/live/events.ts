import { db } from "../db";
import { requireProjectRole } from "../auth/project-access";
import { jobPayload } from "../jobs/queue";
import { latestEstimates } from "../project-data/estimate-history";
import { roundJob } from "../rounds/round-job";
import { settledThrough } from "../labeling/stages";
import { roundProgress, type RoundProgress } from "../rounds/round-progress";
import type { SessionUser } from "../auth/session";
import { countedLabels } from "../labeling/tasks";

/**
 * What pages watch live: label counts, the stages, the round in progress and the latest
 * estimates. The server-sent events stream polls this snapshot and pushes it when it changes, so
 * updates cross from the worker process through the database without a message bus. Annotators
 * get estimates only where the owner allows it.
 */
export interface ProjectSnapshot {
  labels: number;
  budget: number;
  paused: boolean;
  /** the latest stage drawn, the last of the settled prefix (-1: none), and the settled stages' labels no round used yet (a round is due at batchSize) */
  stages: { latest: number; settled: number; fresh: number; batchSize: number } | null;
  round: { index: number; status: "queued" | "running" | "failed"; progress: RoundProgress | null; error: string | null } | null;
  lastRound: { index: number; nLabels: number; finishedAt: string | null } | null;
  /** latest estimates per clustering and metric, when the user may see them */
  estimates: Record<string, Record<string, { value: number; lo: number | null; hi: number | null; pBest: number | null }>> | null;
}

export async function projectSnapshot(user: SessionUser, projectId: string): Promise<ProjectSnapshot> {
  const role = await requireProjectRole(user, projectId);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { budget: true, batchSize: true, paused: true, annotatorsSeeEstimates: true } });
  const latestStage = await db().batch.findFirst({ where: { projectId }, orderBy: { index: "desc" }, select: { index: true } });
  const settled = latestStage ? await settledThrough(db(), projectId) : -1;
  const job = await db().job.findFirst({
    where: { projectId, kind: roundJob.kind, status: { in: ["queued", "running", "failed"] } },
    orderBy: { createdAt: "desc" },
    select: { kind: true, status: true, progress: true, error: true, payload: true },
  });
  const last = await latestEstimates(projectId);
  const maySeeEstimates = role === "OWNER" || project.annotatorsSeeEstimates;
  let estimates: ProjectSnapshot["estimates"] = null;
  if (maySeeEstimates && last) {
    estimates = {};
    for (const e of last.estimates) (estimates[e.clustering] ??= {})[e.metric] = { value: e.value, lo: e.lo, hi: e.hi, pBest: e.pBest };
  }
  return {
    labels: await countedLabels(db(), projectId),
    budget: project.budget,
    paused: project.paused,
    stages: latestStage
      ? {
          latest: latestStage.index,
          settled,
          fresh: await db().label.count({ where: { projectId, kind: "label", withdrawn: false, usedByRound: null, task: { done: true, batch: { index: { lte: settled } } } } }),
          batchSize: project.batchSize,
        }
      : null,
    round: job
      ? { index: jobPayload(roundJob, job).round, status: job.status as "queued" | "running" | "failed", progress: roundProgress.safeParse(job.progress).data ?? null, error: role === "OWNER" ? job.error : null }
      : null,
    lastRound: last ? { index: last.index, nLabels: last.nLabels, finishedAt: last.finishedAt?.toISOString() ?? null } : null,
    estimates,
  };
}

/** A server-sent events response: the snapshot now, then whenever it changes; a heartbeat keeps proxies from closing it. */
export function snapshotStream(user: SessionUser, projectId: string, signal: AbortSignal, pollMs = 1000): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let last = "";
      let quiet = 0;
      const tick = async () => {
        if (signal.aborted) return;
        try {
          const text = JSON.stringify(await projectSnapshot(user, projectId));
          if (text !== last) {
            controller.enqueue(encoder.encode(`event: snapshot\ndata: ${text}\n\n`));
            last = text;
            quiet = 0;
          } else if (++quiet * pollMs >= 15_000) {
            controller.enqueue(encoder.encode(`: heartbeat\n\n`));
            quiet = 0;
          }
          timer = setTimeout(tick, pollMs);
        } catch (error) {
          controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ message: (error as Error).message })}\n\n`));
          controller.close();
        }
      };
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      });
      await tick();
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive" } });
}
