import { db } from "../db";
import { requireProjectRole } from "../auth/project-access";
import { jobPayload } from "../jobs/queue";
import { estimatesByClustering, interimEstimates, latestEstimates } from "../project-data/estimate-history";
import { roundJob } from "../rounds/round-job";
import { settledThrough } from "../labeling/stages";
import { roundProgress, type RoundProgress } from "../rounds/round-progress";
import type { SessionUser } from "../auth/session";
import { countedLabels } from "../labeling/tasks";
import type { ProjectRole } from "@/lib/generated/prisma/enums";
import { createProjectFeeds, memberRoles, type FeedSources, type FeedTiming, type ProjectFeeds } from "./project-feed";
import { listenForProjectChanges, type ProjectListener } from "./project-listener";
import { serverConfig } from "../config";
import { postgresTarget } from "../postgres-url";

/**
 * What pages watch live: label counts, the stages, the round in progress and the latest
 * estimates. The server-sent events stream pushes this snapshot when it changes, so updates
 * cross from the worker process through the database without a message bus; one feed per
 * project and process serves every open stream (project-feed.ts). On SQLite it polls every
 * second; on PostgreSQL it reads the snapshot when a notification says the project changed
 * (project-listener.ts), at most every 250 ms, and polls every 5 s only in case one was lost.
 * Annotators get estimates only where the owner allows it.
 */
export interface ProjectSnapshot {
  labels: number;
  budget: number;
  paused: boolean;
  /** the latest stage drawn, the last of the settled prefix (-1: none), and the settled stages' labels no round used yet (a round is due at batchSize) */
  stages: { latest: number; settled: number; fresh: number; batchSize: number } | null;
  round: { index: number; status: "queued" | "running" | "failed"; progress: RoundProgress | null; error: string | null } | null;
  lastRound: { index: number; nLabels: number; finishedAt: string | null } | null;
  /** latest estimates per clustering and metric, when the user may see them: the running round's interim ones when it has them */
  estimates: Record<string, Record<string, { value: number; lo: number | null; hi: number | null; pBest: number | null }>> | null;
  /** the round `estimates` belong to (null with them): the latest finished round, or (interim: true) the running round's interim estimates from round `model`'s model while its own trains */
  estimatesRound: { index: number; nLabels: number; interim: boolean; model: number } | null;
}

export async function projectSnapshot(user: SessionUser, projectId: string): Promise<ProjectSnapshot> {
  return snapshotAs(projectId, await requireProjectRole(user, projectId));
}

/** The snapshot as a member with this role sees it (the caller checked the membership). */
export async function snapshotAs(projectId: string, role: ProjectRole): Promise<ProjectSnapshot> {
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
  const shown = maySeeEstimates ? ((await interimEstimates(projectId)) ?? last) : null;
  const estimates: ProjectSnapshot["estimates"] = shown ? estimatesByClustering(shown.estimates) : null;
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
    estimatesRound: shown ? { index: shown.index, nLabels: shown.nLabels, interim: shown.interim, model: shown.interim ? shown.index - 1 : shown.index } : null,
  };
}

/** The feeds' timing on SQLite: a poll every second. */
export const POLLED_TIMING: FeedTiming = { pollMs: 1000, minGapMs: 0 };
/** On PostgreSQL: a tick when notified, at most every 250 ms; the poll only catches a lost notification. */
export const NOTIFIED_TIMING: FeedTiming = { pollMs: 5000, minGapMs: 250 };

const snapshotSources: FeedSources = { snapshot: async (projectId, role) => JSON.stringify(await snapshotAs(projectId, role)), roles: memberRoles };

/** Feeds woken by PostgreSQL's notifications through one listening connection (close the listener to end it). */
export function notifiedProjectFeeds(postgresUrl: string, timing: FeedTiming = NOTIFIED_TIMING): { feeds: ProjectFeeds; listener: ProjectListener } {
  const feeds = createProjectFeeds(snapshotSources, timing);
  const listener = listenForProjectChanges({ pool: postgresTarget(postgresUrl).pool, changed: feeds.wake, connected: feeds.wakeAll });
  return { feeds, listener };
}

const feedHolder = globalThis as unknown as { cerealProjectFeeds?: ProjectFeeds };

/** The process's project feeds (on globalThis so Next's route bundles share one feed per project and one listener). */
export function projectFeeds(): ProjectFeeds {
  if (!feedHolder.cerealProjectFeeds) {
    const { postgresUrl } = serverConfig();
    feedHolder.cerealProjectFeeds = postgresUrl ? notifiedProjectFeeds(postgresUrl).feeds : createProjectFeeds(snapshotSources, POLLED_TIMING);
  }
  return feedHolder.cerealProjectFeeds;
}

/**
 * A server-sent events response: `first` (the snapshot the route authorized with) at once, then
 * the project feed's snapshot whenever it changes; a heartbeat keeps proxies from closing it.
 */
export function snapshotStream(user: SessionUser, projectId: string, first: ProjectSnapshot, signal: AbortSignal, feeds: ProjectFeeds = projectFeeds(), heartbeatMs = 15_000): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = JSON.stringify(first);
      let quietSince = Date.now();
      let open = true;
      const close = () => {
        if (!open) return;
        open = false;
        stop();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      controller.enqueue(encoder.encode(`event: snapshot\ndata: ${last}\n\n`));
      stop = feeds.watch(projectId, user.id, (event) => {
        if (!open) return;
        if ("error" in event) {
          controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ message: event.error })}\n\n`));
          close();
        } else if (event.snapshot !== last) {
          controller.enqueue(encoder.encode(`event: snapshot\ndata: ${event.snapshot}\n\n`));
          last = event.snapshot;
          quietSince = Date.now();
        } else if (Date.now() - quietSince >= heartbeatMs) {
          controller.enqueue(encoder.encode(`: heartbeat\n\n`));
          quietSince = Date.now();
        }
      });
      if (signal.aborted) close();
      else signal.addEventListener("abort", close, { once: true });
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive" } });
}
