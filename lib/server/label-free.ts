/**
 * The label-free column of the clustering ranking: paired, pooled and ACE scores of a project's
 * clusterings across its embedding spaces (lib/ace), owner only. Scoring every clustering in every
 * space takes seconds of CPU, so it runs as a worker job and its result is cached in the project
 * folder (label-free/MEASURE.json) under a key of the clusterings and spaces it covered; a GET
 * returns the cached result while it is current, and otherwise queues the job and says so.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ace, INTERNAL_MEASURES, pooledScores, scoreMatrix, screenSpaces, type InternalMeasure, type ScoreMatrix, type SpaceDip } from "@/lib/ace";
import { readNpy } from "@/lib/data/npy";
import { db } from "./db";
import { enqueueJob } from "./jobs";
import { requireProjectRole } from "./project-access";
import { projectDir, projectFile } from "./project-files";
import type { SessionUser } from "./session";
import type { JobHandler } from "./worker";

export const LABEL_FREE_JOB = "label-free";
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
    const manifest = JSON.parse(await readFile(path.join(projectDir(project), "manifest.json"), "utf8")) as { embeddings?: string };
    spaces = [{ name: project.embeddingSpace ?? "embeddings", file: manifest.embeddings ?? "embeddings.npy" }];
  }
  const clusterings = await db().clustering.findMany({ where: { projectId: project.id }, orderBy: { name: "asc" }, select: { id: true, name: true, file: true, space: true } });
  // a clustering without a space was made in the project's main embeddings
  const withSpace = clusterings.map((c) => ({ ...c, space: c.space ?? (rows.length === 0 ? spaces[0].name : project.embeddingSpace) }));
  const key = JSON.stringify({ version: VERSION, measure, spaces, clusterings: withSpace.map((c) => [c.id, c.file, c.space]) });
  return { key, spaces, clusterings: withSpace };
}

const cachePath = (project: { dataPath: string }, measure: InternalMeasure) => projectFile(project, `label-free/${measure}.json`);

async function cached(project: { dataPath: string }, measure: InternalMeasure, key: string): Promise<LabelFreeResult | null> {
  try {
    const stored = JSON.parse(await readFile(cachePath(project, measure), "utf8")) as { key: string; result: LabelFreeResult };
    return stored.key === key ? stored.result : null;
  } catch {
    return null;
  }
}

/** `query` as it comes from the URL: an unknown measure is a 400 naming the valid ones. */
export async function labelFreeEvaluation(user: SessionUser, projectId: string, query: { measure?: string | null }): Promise<LabelFreeResponse> {
  await requireProjectRole(user, projectId, "OWNER");
  const { measure } = labelFreeQuery.parse({ measure: query.measure ?? undefined });
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, dataPath: true, embeddingSpace: true } });
  const current = await inputs(project, measure);
  if (current.clusterings.length < 3)
    return { state: "unavailable", measure, reason: "ACE compares clusterings by rank across spaces: add at least 3 clusterings." };
  const result = await cached(project, measure, current.key);
  if (result) return { state: "ready", ...result };
  const pending = await db().job.findMany({ where: { projectId, kind: LABEL_FREE_JOB, status: { in: ["queued", "running"] } }, select: { id: true, payload: true } });
  const same = pending.find((j) => (j.payload as { measure?: string }).measure === measure);
  const job = same ?? (await enqueueJob(LABEL_FREE_JOB, { projectId, measure }, { projectId }));
  return { state: "computing", measure, jobId: job.id };
}

const jobPayload = z.object({ projectId: z.string(), measure: labelFreeQuery.shape.measure });

const finite = (v: number) => (Number.isFinite(v) ? v : null);

export const labelFreeJobHandler: JobHandler = async ({ job, progress }) => {
  const { projectId, measure } = jobPayload.parse(job.payload);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, n: true, dataPath: true, embeddingSpace: true, seed: true } });
  const current = await inputs(project, measure);
  const clusterings = [];
  for (const c of current.clusterings) clusterings.push({ name: c.name, labels: (await readNpy(projectFile(project, c.file))).data as Int32Array, space: c.space });
  // one space at a time, renewing the lease in between: a space of 20 000 items takes tens of
  // seconds of synchronous work, and the lease must not lapse meanwhile (lib/ace's evaluateLabelFree, split)
  const dips: SpaceDip[] = [];
  const rows: number[][] = [];
  for (const [index, s] of current.spaces.entries()) {
    await progress({ stage: "scoring", space: s.name, done: index, of: current.spaces.length });
    const a = await readNpy(projectFile(project, s.file));
    const space = { name: s.name, x: a.data as Float32Array, d: a.shape[1] };
    dips.push(screenSpaces([space], { seed: project.seed })[0]);
    rows.push([...scoreMatrix([space], clusterings, measure, { seed: project.seed }).scores[0]]);
  }
  const names = current.spaces.map((s) => s.name);
  const matrix: ScoreMatrix = {
    measure,
    spaces: names,
    clusterings: clusterings.map((c) => c.name),
    scores: rows,
    paired: clusterings.map((c, j) => (c.space !== null && names.includes(c.space) ? rows[names.indexOf(c.space)][j] : NaN)),
  };
  const aceResult = ace({ spaces: names, scores: rows, dipPValues: dips.map((d) => d.pValue) });
  const r = { matrix, dips, pooled: pooledScores(matrix, aceResult.multimodalSpaces), ace: aceResult };
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
  await mkdir(path.dirname(cachePath(project, measure)), { recursive: true });
  await writeFile(cachePath(project, measure), JSON.stringify({ key: current.key, result }));
  return { measure, clusterings: result.clusterings.length, chosenSpaces: r.ace.chosen.spaces };
};
