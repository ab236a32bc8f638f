import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Acquisition } from "@/lib/cereal/acquisition";
import type { PairDesign, PairDrawRecord } from "@/lib/cereal/pair-designs";
import { runPairwiseRound, type PairwiseRoundResult, type PairwiseState } from "@/lib/cereal/pairwise-round";
import { defaultNumOutputs, type PairwiseSurrogateFactory } from "@/lib/cereal/pairwise-surrogate";
import type { CerealProblem } from "@/lib/cereal/problem";
import { encodeNpy } from "@/lib/data/npy";
import { projectDir, projectFile } from "./project-files";
import { maybeEnqueueRound } from "./round-queue";
import { assertProjectExists, completeRound, writeFileAtomically } from "./round-store";
import type { JobContext } from "./worker";
import { trainingProgress } from "./round-progress";

/**
 * A pairwise project's round (issue #10): the L2C surrogate is trained on the project's
 * same/different answers, every metric of every clustering is estimated from its argmax cluster
 * ids, and the next pairs are drawn with the project's pair design. Stored like a clusterwise
 * round: Estimates with intervals, per-item results [N x 2] (cluster id, max p), the next batch.
 */

/** One answered pair of a finished task (majority answer or the owner's resolution). */
export interface PairRow {
  readonly a: number;
  readonly b: number;
  readonly same: boolean;
  readonly draw: PairDrawRecord;
}

/**
 * The pair design of a project: there is no separate setting; the acquisition the project already
 * has names it. Random and the NMI-targeted acquisitions (Hard NMI, the default, and Soft NMI)
 * draw uniform pairs, which gave the lowest AEC of the three designs (issue #10 note); the
 * uncertainty acquisitions (MaxEntropy, BALD) draw `uncertain` pairs, CrossEntropy (a cluster
 * against its class) `anchor` pairs, each with half of every batch uniform (UNIFORM_SHARE).
 */
export function pairDesignFor(acquisition: string): PairDesign {
  const byAcquisition: Record<Acquisition, PairDesign> = {
    random: "random",
    hardnmi: "random",
    softnmi: "random",
    maxentropy: "uncertain",
    bald: "uncertain",
    crossentropy: "anchor",
  };
  return byAcquisition[acquisition as Acquisition] ?? "random";
}

/**
 * Share of uniform pairs in an uncertain or anchor batch: trained on the design's pairs alone,
 * MCL merged classes on digits (NMI AEC 0.43-0.44 vs 0.18-0.20 with half uniform, 500-pair batches).
 */
export const UNIFORM_SHARE = 0.5;

export interface PairwiseRoundProject {
  id: string;
  n: number;
  seed: number;
  acquisition: string;
  dataPath: string;
  classes: readonly unknown[];
  clusterings: readonly { id: string; name: string }[];
}

export async function runPairwiseRoundJob(
  ctx: JobContext,
  createSurrogate: PairwiseSurrogateFactory,
  project: PairwiseRoundProject,
  problem: CerealProblem,
  round: number,
  pairs: readonly PairRow[],
  batch: number,
  overflow: number,
  drawnPairs: ReadonlySet<string>,
  started: number,
) {
  const state: PairwiseState = {
    problem,
    pairs: {
      a: Int32Array.from(pairs, (p) => p.a),
      b: Int32Array.from(pairs, (p) => p.b),
      same: Uint8Array.from(pairs, (p) => (p.same ? 1 : 0)),
    },
    draws: pairs.map((p) => p.draw),
    round,
  };
  // K' = twice the project's reference classes, or 50 when it names none (paper appendix B)
  const surrogate = await createSurrogate(problem.embeddings, defaultNumOutputs(project.classes.length || null));
  let result: PairwiseRoundResult;
  try {
    result = await runPairwiseRound(state, surrogate, {
      design: pairDesignFor(project.acquisition),
      strategy: "all",
      batch,
      seed: project.seed,
      exclude: drawnPairs,
      designOptions: { uniformShare: UNIFORM_SHARE },
      onProgress: trainingProgress(ctx),
    });
  } finally {
    surrogate.dispose();
  }
  if (ctx.signal.aborted) throw new Error("The round was cancelled.");
  await assertProjectExists(project.id);
  await ctx.progress({ phase: "writing" });
  const writeStarted = performance.now();
  const resultsFile = result.proba ? await writeResults(project, round, result) : null;
  await completeRound(project, round, result, {
    nextBatchSize: overflow + batch,
    started,
    writeStarted,
    measured: {
      surrogateAccuracy: result.pairAccuracy,
      resultsFile,
    },
  });
  await maybeEnqueueRound(project.id);
  return { round, pairwise: true, nLabels: result.nLabels, next: result.next.length, pairAccuracy: result.pairAccuracy };
}

/** Per-item results [N x 2] float32: argmax cluster id (its "class") and max p, like a clusterwise round's. */
async function writeResults(project: { dataPath: string; n: number }, round: number, result: PairwiseRoundResult): Promise<string> {
  const n = project.n;
  const k = result.numOutputs;
  const perItem = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    perItem[i * 2] = result.pseudoLabels![i];
    perItem[i * 2 + 1] = result.proba![i * k + result.pseudoLabels![i]];
  }
  await mkdir(path.join(projectDir(project), "rounds"), { recursive: true });
  const file = `rounds/round-${round}.npy`;
  const full = projectFile(project, file);
  await writeFileAtomically(full, encodeNpy(perItem, [n, 2]));
  return file;
}
