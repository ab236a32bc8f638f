import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Acquisition } from "@/lib/cereal/acquisition";
import type { Design, Draw } from "@/lib/cereal/designs";
import { estimatorByName } from "@/lib/cereal/estimators";
import { recordFromJson, recordToJson, type OutOfSampleJson } from "@/lib/cereal/out-of-sample";
import { PAIR_DESIGN_SAMPLING } from "@/lib/cereal/pair-designs";
import type { PairwiseSurrogateFactory } from "@/lib/cereal/pairwise-surrogate";
import type { CerealProblem, CerealState, TestClustering } from "@/lib/cereal/problem";
import { runRound, needsSurrogate, type RoundResult } from "@/lib/cereal/round";
import type { SurrogateFactory } from "@/lib/cereal/surrogate";
import { encodeNpy, readNpy } from "@/lib/data/npy";
import { drawnKeys } from "./batches";
import { codeVersion } from "./code-version";
import { db, transaction } from "./db";
import { majority } from "./labels";
import { projectDir, projectFile } from "./project-files";
import { pairDesignFor, runPairwiseRoundJob, UNIFORM_SHARE, type PairRow } from "./pairwise-rounds";
import { maybeEnqueueRound } from "./round-queue";
import { runSettings } from "./run-settings";
import { assertProjectExists, completeRound, writeFileAtomically } from "./round-store";
import { countedLabels } from "./tasks";
import type { JobContext, JobHandler } from "./worker";
import { trainingProgress } from "./round-progress";

/**
 * A round in the worker (paper Algorithm 1 on the project's labels): claim the round (one Round
 * row per index, marking the labels it uses so they can no longer be withdrawn), load the
 * embeddings and clusterings, run lib/cereal's round with the TF.js surrogate, write per-item
 * results to .npy, then store the estimates and the next batch in one transaction. A worker
 * killed at any point leaves either no finished round (the job is claimed again and resumes on
 * the same Round row) or exactly one finished round and one next batch.
 */
const payload = z.object({ projectId: z.string(), round: z.number().int().min(0) });

export interface RoundJobDeps {
  createSurrogate: SurrogateFactory;
  /** the L2C surrogate of pairwise projects (a worker without one fails their rounds with a message) */
  createPairwiseSurrogate?: PairwiseSurrogateFactory;
}

export async function runRoundJob(ctx: JobContext, deps: RoundJobDeps) {
  const { projectId, round } = payload.parse(ctx.job.payload);
  const started = performance.now();
  const project = await loadProject(projectId);
  const existing = await db().round.findUnique({ where: { projectId_index: { projectId, index: round } } });
  if (existing?.status === "done") return { round, skipped: "already done" };

  const { rows: labelRows, pairs } = await startRound(projectId, round, ctx.job.id, project, existing?.id ?? null);
  const drawn = await drawnKeys(db(), projectId);
  const nextBatch = await db().batch.findUnique({ where: { projectId_index: { projectId, index: round + 1 } }, include: { _count: { select: { tasks: true } } } });
  const overflow = nextBatch?._count.tasks ?? 0;
  const room = Math.max(0, project.budget - drawn.count);
  const batch = (await countedLabels(db(), projectId)) >= project.budget ? 0 : Math.max(0, Math.min(project.batchSize, room) - overflow);

  if (project.mode === "pairwise") {
    if (!deps.createPairwiseSurrogate) throw new Error("This worker has no pairwise surrogate; pairwise rounds need one (roundJobHandler's second argument).");
    return runPairwiseRoundJob(ctx, deps.createPairwiseSurrogate, project, await loadProblem(project), round, pairs, batch, overflow, drawn.pairs, started);
  }
  const state = await loadState(project, round, labelRows);

  const acquisition = project.acquisition as Acquisition;
  const estimator = estimatorByName(project.estimator);
  const options = {
    acquisition,
    design: project.design as Design,
    estimator,
    fixmatch: project.fixmatch,
    steps: project.fixmatchSteps,
    batch,
    seed: project.seed,
    exclude: Int32Array.from(drawn.rows),
    // With the guarded estimator, FixMatch falls back to supervised training while earlier models
    // fail on the new labels (lib/cereal/round.ts); the other estimators train as configured.
    trainerGuard: project.estimator === "guarded",
    onProgress: trainingProgress(ctx),
  };
  const surrogate = needsSurrogate(options) ? await deps.createSurrogate(state.problem.embeddings, Math.max(2, project.classes.length)) : null;
  let result: RoundResult;
  try {
    result = await runRound(state, surrogate, options);
  } finally {
    surrogate?.dispose();
  }
  if (ctx.signal.aborted) throw new Error("The round was cancelled.");
  await assertProjectExists(projectId);
  await ctx.progress({ phase: "writing" });
  const writeStarted = performance.now();
  const files = await writeResults(project, round, state, result);
  await completeRound(project, round, result, {
    nextBatchSize: overflow + batch,
    started,
    writeStarted,
    measured: {
      maskRate: result.fit?.maskRate ?? null,
      surrogateAccuracy: result.health?.recentAccuracy ?? null,
      surrogateWeak: result.health ? result.health.weak : null,
      surrogateEce: result.calibration?.eceRaw ?? null,
      resultsFile: files.resultsFile,
      scoresFile: files.scoresFile,
    },
  });
  await maybeEnqueueRound(projectId);
  return { round, nLabels: result.nLabels, next: result.next.length };
}

type LoadedProject = Awaited<ReturnType<typeof loadProject>>;
const loadProject = (id: string) => db().project.findUniqueOrThrow({ where: { id }, include: { classes: true, clusterings: { orderBy: { name: "asc" } } } });

interface LabelRow {
  itemIndex: number;
  classIndex: number;
  draw: Draw;
}

/** Creates (or takes over) the Round row and freezes the labels it will use: item labels, or answered pairs. */
async function startRound(
  projectId: string,
  round: number,
  jobId: string,
  project: LoadedProject,
  roundId: string | null,
): Promise<{ rows: LabelRow[]; pairs: PairRow[] }> {
  return transaction(async (tx) => {
    const tasks = await tx.task.findMany({
      where: { projectId, done: true },
      include: { labels: { where: { withdrawn: false } }, batch: { select: { index: true } } },
      orderBy: { drawOrder: "asc" },
    });
    const rows: LabelRow[] = [];
    const pairs: PairRow[] = [];
    for (const task of tasks) {
      if (project.mode === "pairwise") {
        // "unsure" answers and skips never count (majority ignores them): such a pair is left out
        const answer = task.resolvedAnswer ?? majority(task.labels);
        if ((answer !== "same" && answer !== "different") || task.itemIndexB === null) continue;
        const draw = { row: task.itemIndex, rowB: task.itemIndexB, design: task.design as Draw["design"], score: task.score, q: task.q, order: task.drawOrder, round: task.batch.index };
        pairs.push({ a: task.itemIndex, b: task.itemIndexB, same: answer === "same", draw });
        continue;
      }
      const value = task.resolvedClassIndex !== null ? String(task.resolvedClassIndex) : majority(task.labels);
      if (value === null) continue;
      rows.push({
        itemIndex: task.itemIndex,
        classIndex: Number(value),
        draw: { row: task.itemIndex, design: task.design as Draw["design"], score: task.score, q: task.q, order: task.drawOrder, round: task.batch.index },
      });
    }
    await tx.label.updateMany({ where: { projectId, withdrawn: false, usedByRound: null, task: { done: true } }, data: { usedByRound: round } });
    const data = {
      nLabels: rows.length + pairs.length,
      status: "running",
      jobId,
      config: roundConfig(project),
      seed: project.seed,
      codeVersion: codeVersion(),
    };
    if (roundId) await tx.round.update({ where: { id: roundId }, data });
    else await tx.round.create({ data: { projectId, index: round, ...data } });
    return { rows, pairs };
  });
}

function roundConfig(project: LoadedProject) {
  const pairDesign = project.mode === "pairwise" ? pairDesignFor(project.acquisition) : null;
  return {
    ...runSettings(project),
    mode: project.mode,
    // a pairwise project draws pairs: the sampling its pair design implies
    design: pairDesign ? PAIR_DESIGN_SAMPLING[pairDesign] : (project.design as Design),
    ...(pairDesign ? { pairDesign, uniformShare: pairDesign === "random" ? 1 : UNIFORM_SHARE, pseudoLabels: "all" } : {}),
  };
}

/** The embeddings and test clusterings of a project, from its files. */
async function loadProblem(project: LoadedProject): Promise<CerealProblem> {
  const dir = projectDir(project);
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as { embeddings?: string };
  const embeddings = await readNpy(projectFile(project, manifest.embeddings ?? "embeddings.npy"));
  const clusterings: TestClustering[] = [];
  for (const c of project.clusterings) {
    const assignments = (await readNpy(projectFile(project, c.file))).data as Int32Array;
    const soft = c.softFile ? ((await readNpy(projectFile(project, c.softFile))).data as Float32Array) : undefined;
    clusterings.push({ name: c.name, assignments, k: c.k, soft });
  }
  return { embeddings: { data: embeddings.data as Float32Array, n: project.n, d: project.d }, numClasses: Math.max(2, project.classes.length), clusterings };
}

async function loadState(project: LoadedProject, round: number, labels: LabelRow[]): Promise<CerealState> {
  return {
    problem: await loadProblem(project),
    labeled: { rows: Int32Array.from(labels, (l) => l.itemIndex), labels: Int32Array.from(labels, (l) => l.classIndex) },
    draws: labels.map((l) => l.draw),
    round,
    outOfSample: await readRecord(project, round - 1),
  };
}

/** The earlier models' out-of-sample view (lib/cereal/out-of-sample.ts) as round `round` left it; none before round 0. */
async function readRecord(project: LoadedProject, round: number) {
  if (round < 0) return undefined;
  try {
    return recordFromJson(JSON.parse(await readFile(projectFile(project, recordFile(round)), "utf8")) as OutOfSampleJson);
  } catch {
    // a project whose earlier rounds ran before the record existed: the ppi estimators fall back to the labels' weights
    return undefined;
  }
}

const recordFile = (round: number) => `rounds/round-${round}-record.json`;

/** Per-item results: [N x 2] float32 (class: label or pseudo-label, -1 if none; confidence) and the pool's scores [N]. */
async function writeResults(project: LoadedProject, round: number, state: CerealState, result: RoundResult) {
  const n = project.n;
  const perItem = new Float32Array(n * 2).fill(-1);
  state.labeled.rows.forEach((row, i) => {
    perItem[row * 2] = state.labeled.labels[i];
    perItem[row * 2 + 1] = 1;
  });
  if (result.proba && result.pseudoLabels) {
    const C = state.problem.numClasses;
    result.unlabeled.forEach((row, i) => {
      perItem[row * 2] = result.pseudoLabels![i];
      let max = 0;
      for (let y = 0; y < C; y++) max = Math.max(max, result.proba![i * C + y]);
      perItem[row * 2 + 1] = max;
    });
  }
  const scores = new Float32Array(n).fill(Number.NaN);
  if (result.poolScores) result.poolScores.rows.forEach((row, i) => (scores[row] = result.poolScores!.scores[i]));
  const dir = path.join(projectDir(project), "rounds");
  await mkdir(dir, { recursive: true });
  const resultsFile = `rounds/round-${round}.npy`;
  const scoresFile = `rounds/round-${round}-scores.npy`;
  await writeFileAtomically(projectFile(project, resultsFile), encodeNpy(perItem, [n, 2]));
  await writeFileAtomically(projectFile(project, scoresFile), encodeNpy(scores, [n]));
  await writeFileAtomically(projectFile(project, recordFile(round)), JSON.stringify(recordToJson(result.outOfSample)));
  return { resultsFile, scoresFile };
}

/** The worker's handler for round jobs, over surrogate factories (TF.js in the app, fakes in tests). */
export function roundJobHandler(createSurrogate: SurrogateFactory, createPairwiseSurrogate?: PairwiseSurrogateFactory): JobHandler {
  return async (ctx) => {
    try {
      return await runRoundJob(ctx, { createSurrogate, createPairwiseSurrogate });
    } catch (error) {
      // The last attempt failed: the Round row shows the error too (the job keeps it, retryable).
      if (ctx.job.attempts >= ctx.job.maxAttempts) {
        const { projectId, round } = payload.parse(ctx.job.payload);
        const message = error instanceof Error ? error.message : String(error);
        await db().round.updateMany({ where: { projectId, index: round, status: { not: "done" } }, data: { status: "failed", error: message } });
      }
      throw error;
    }
  };
}
