/**
 * The label-free column of the clustering ranking: paired, pooled and ACE scores of a project's
 * clusterings across its embedding spaces (lib/ace), owner only. Scoring every clustering in every
 * space takes seconds of CPU, so it runs as a worker job and its result is cached in the project
 * folder (label-free/MEASURE.json) under a key of the clusterings and spaces it covered; a GET
 * returns the cached result while it is current, and otherwise queues the job and says so.
 */
import { z } from "zod";
import { evaluateLabelFreeBySpace, INTERNAL_MEASURES, type InternalMeasure } from "@/lib/ace";
import { db } from "../db";
import { defineJob } from "../jobs/definition";
import { enqueueJob, jobPayload } from "../jobs/queue";
import { requireProjectRole } from "../auth/project-access";
import { readArray, readAssignments } from "../project-data/arrays";
import { readLabelFreeCache, writeLabelFreeCache } from "../project-data/job-files";
import { embeddingsFile } from "../project-data/manifest";
import type { SessionUser } from "../auth/session";

/**
 * The largest N label-free scores are computed for. Measured up to 20 000 items (tens of seconds
 * per space); above it the dip test's null (1 000 uniform samples of N, each sorted) grows as
 * N log N per sample and every space is read whole, so 10^5 items is unmeasured and 10^6 would
 * take hours: larger projects are told so instead of queueing a job that cannot finish.
 */
export const LABEL_FREE_MAX_ITEMS = 20_000;

/** bump when the scores' definition changes, so cached results are recomputed */
const VERSION = 1;

export const labelFreeQuery = z.object({
  measure: z.enum(INTERNAL_MEASURES as [InternalMeasure, ...InternalMeasure[]], { message: `measure must be one of ${INTERNAL_MEASURES.join(", ")}.` }).default("silhouette"),
});

interface Inputs {
  key: string;
  spaces: { name: string; file: string }[];
  clusterings: { id: string; name: string; file: string; space: string | null }[];
}

export interface LabelFreeResult {
  readonly measure: InternalMeasure;
  readonly computedAt: string;
  readonly spaces: { name: string; dip: number; pValue: number; multimodal: boolean; weight: number }[];
  readonly clusterings: { id: string; name: string; space: string | null; paired: number | null; pooled: number | null; ace: number | null }[];
  readonly outlierSpaces: readonly string[];
}

export type LabelFreeResponse =
  | ({ state: "ready" } & LabelFreeResult)
  | { state: "computing"; measure: InternalMeasure; jobId: string }
  | { state: "unavailable"; measure: InternalMeasure; reason: string };

async function inputs(project: { id: string; dataPath: string; embeddingSpace: string | null }, measure: InternalMeasure): Promise<Inputs> {
  const rows = await db().embeddingSpace.findMany({ where: { projectId: project.id }, orderBy: { name: "asc" }, select: { name: true, file: true } });
  let spaces = rows;
  if (spaces.length === 0) {
    spaces = [{ name: project.embeddingSpace ?? "embeddings", file: await embeddingsFile(project) }];
  }
  const clusterings = await db().clustering.findMany({ where: { projectId: project.id }, orderBy: { name: "asc" }, select: { id: true, name: true, file: true, space: true } });
  // a clustering without a space was made in the project's main embeddings
  const withSpace = clusterings.map((c) => ({ ...c, space: c.space ?? (rows.length === 0 ? spaces[0].name : project.embeddingSpace) }));
  const key = JSON.stringify({ version: VERSION, measure, spaces, clusterings: withSpace.map((c) => [c.id, c.file, c.space]) });
  return { key, spaces, clusterings: withSpace };
}

/** `query` as it comes from the URL: an unknown measure is a 400 naming the valid ones. */
export async function labelFreeEvaluation(user: SessionUser, projectId: string, query: { measure?: string | null }): Promise<LabelFreeResponse> {
  await requireProjectRole(user, projectId, "OWNER");
  const { measure } = labelFreeQuery.parse({ measure: query.measure ?? undefined });
  return (await currentLabelFree(projectId, measure)) ?? { state: "computing", measure, jobId: (await enqueueJob(labelFreeJob, { projectId, measure })).id };
}

/** The scores as they stand, never queueing a job (the ranking reads them): null when neither computed nor computing. */
export async function currentLabelFree(projectId: string, measure: InternalMeasure): Promise<LabelFreeResponse | null> {
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, n: true, dataPath: true, embeddingSpace: true } });
  if (project.n > LABEL_FREE_MAX_ITEMS)
    return {
      state: "unavailable",
      measure,
      reason: `Label-free scores are limited to ${LABEL_FREE_MAX_ITEMS.toLocaleString("en")} items (the dip test's null and the per-space scores grow faster than N); this project has ${project.n.toLocaleString("en")}. The estimates from labels are unaffected.`,
    };
  const current = await inputs(project, measure);
  if (current.clusterings.length < 3) return { state: "unavailable", measure, reason: "ACE compares clusterings by rank across spaces: add at least 3 clusterings." };
  const result = await readLabelFreeCache<LabelFreeResult>(project, measure, current.key);
  if (result) return { state: "ready", ...result };
  const job = await pendingJob(projectId, measure);
  return job ? { state: "computing", measure, jobId: job.id } : null;
}

async function pendingJob(projectId: string, measure: InternalMeasure) {
  const pending = await db().job.findMany({ where: { projectId, kind: labelFreeJob.kind, status: { in: ["queued", "running"] } }, select: { id: true, kind: true, payload: true } });
  return pending.find((j) => jobPayload(labelFreeJob, j).measure === measure) ?? null;
}

const finite = (v: number) => (Number.isFinite(v) ? v : null);

export const labelFreeJob = defineJob({
  kind: "label-free",
  payload: z.object({ projectId: z.string().min(1), measure: labelFreeQuery.shape.measure }),
  result: z.object({ measure: z.string(), clusterings: z.number(), chosenSpaces: z.array(z.string()) }),
  lane: "heavy",
  onePerProject: false,
  projectOf: (p) => p.projectId,
  // every clustering scored in every space: tens of seconds per space of 20 000 items
  longestRunMs: 2 * 60 * 60_000,
  retry: { maxAttempts: 3, backoffMs: 5_000 },
  run: ({ payload, progress }) => scoreLabelFree(payload, progress),
});

async function scoreLabelFree({ projectId, measure }: { projectId: string; measure: InternalMeasure }, progress: (value: { stage: string; space: string; done: number; of: number }) => Promise<boolean>) {
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, n: true, dataPath: true, embeddingSpace: true, seed: true } });
  const current = await inputs(project, measure);
  const clusterings = [];
  for (const c of current.clusterings) clusterings.push({ name: c.name, labels: await readAssignments(project, c), space: c.space });
  // one space at a time, renewing the lease in between: a space of 20 000 items takes tens of
  // seconds of synchronous work, and the lease must not lapse meanwhile
  const files = new Map(current.spaces.map((s) => [s.name, s.file]));
  const r = await evaluateLabelFreeBySpace(
    current.spaces.map((s) => s.name),
    async (name) => {
      const a = await readArray(project, files.get(name)!);
      return { name, x: a.data as Float32Array, d: a.shape[1] };
    },
    clusterings,
    measure,
    { seed: project.seed },
    ({ space, done, of }) => progress({ stage: "scoring", space, done, of }),
  );
  const weights = new Map(r.ace.chosen.spaces.map((s, i) => [s, r.ace.chosen.weights[i]]));
  const result: LabelFreeResult = {
    measure,
    computedAt: new Date().toISOString(),
    spaces: r.dips.map((d) => ({ name: d.space, dip: d.dip, pValue: d.pValue, multimodal: r.ace.multimodalSpaces.includes(d.space), weight: weights.get(d.space) ?? 0 })),
    clusterings: current.clusterings.map((c, i) => ({
      id: c.id,
      name: c.name,
      space: c.space,
      paired: finite(r.matrix.paired[i]),
      pooled: finite(r.pooled[i]),
      ace: finite(r.ace.scores[i]),
    })),
    outlierSpaces: r.ace.outlierSpaces,
  };
  await writeLabelFreeCache(project, measure, current.key, result);
  return { measure, clusterings: result.clusterings.length, chosenSpaces: [...r.ace.chosen.spaces] };
}
