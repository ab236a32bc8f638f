/**
 * Algorithm 1 step 4: score the unlabeled pool with an acquisition function and draw the next
 * batch with its sampling design. Random uses the uniform design, CrossEntropy the proportional
 * one (as the paper samples it), the others take the top scores; any can be overridden.
 * With several test clusterings an item's score is the mean over clusterings, or (per-clustering
 * mode) the batch is split between the clusterings, each drawing its share by its own score.
 */
import {
  jointTable,
  scoreBald,
  scoreCrossEntropy,
  scoreHardNmi,
  scoreMaxEntropy,
  scoreResidual,
  scoreSoftNmi,
  type Acquisition,
} from "./acquisition";
import { drawByDesign, type Design, type DesignDraw } from "./designs";
import type { TestClustering } from "./problem";
import type { Random } from "../../random/named-streams";

export type ScoreMode = "mean" | "per-clustering";

export const DEFAULT_DESIGN: Record<Acquisition, Design> = {
  random: "uniform",
  maxentropy: "top-score",
  bald: "top-score",
  crossentropy: "proportional",
  hardnmi: "top-score",
  softnmi: "top-score",
  // a probability sample by construction: its 1/q weights are the design
  residual: "proportional",
};

/** The designs an acquisition can draw with: Random draws uniformly, a scoring acquisition by its
 * scores, proportionally first (a probability sample, so the guarded estimator's correction holds) */
export function designsFor(acquisition: Acquisition): readonly Design[] {
  return acquisition === "random" ? ["uniform"] : ["proportional", "top-score"];
}

export interface AcquireInput {
  readonly numClasses: number;
  readonly clusterings: readonly TestClustering[];
  /** the unlabeled rows, increasing */
  readonly pool: Int32Array;
  /** pi(.|x) for the pool, [pool x C]; null only for random */
  readonly proba: Float32Array | null;
  /** MC dropout probabilities [passes x pool x C] (BALD only) */
  readonly mc?: { readonly proba: Float32Array; readonly passes: number };
  /** reference class of every row under the current labels + pseudo-labels (the NMI scores' table); length N */
  readonly currentClasses: Int32Array | null;
}

export interface AcquireOptions {
  readonly acquisition: Acquisition;
  readonly n: number;
  readonly design?: Design;
  readonly scoreMode?: ScoreMode;
  /** the proportional design's uniform share (default 0.1) */
  readonly eps?: number;
}

/** clustering-dependent acquisitions (the others give the same score whatever the clustering) */
const PER_CLUSTERING: ReadonlySet<Acquisition> = new Set(["crossentropy", "hardnmi", "softnmi"]);

/** Scores of the pool rows listed by `positions` (indices into input.pool; null: the whole pool, in order) under one clustering. */
export function scorePool(input: AcquireInput, acquisition: Acquisition, clustering: TestClustering, positions: Int32Array | null): Float64Array {
  const C = input.numClasses;
  const count = positions ? positions.length : input.pool.length;
  if (acquisition === "random") return new Float64Array(count);
  if (!input.proba) throw new Error(`${acquisition} acquisition needs the surrogate's probabilities`);
  const proba = positions ? gatherRows(input.proba, positions, C) : input.proba;
  if (acquisition === "maxentropy") return scoreMaxEntropy(proba, C);
  if (acquisition === "residual") return scoreResidual(proba, C);
  if (acquisition === "bald") {
    if (!input.mc) throw new Error("bald acquisition needs MC dropout probabilities");
    const { passes } = input.mc;
    if (!positions) return scoreBald(input.mc.proba, passes, C);
    const P = input.pool.length;
    const mc = new Float32Array(passes * positions.length * C);
    for (let t = 0; t < passes; t++)
      for (let i = 0; i < positions.length; i++)
        mc.set(input.mc.proba.subarray((t * P + positions[i]) * C, (t * P + positions[i] + 1) * C), (t * positions.length + i) * C);
    return scoreBald(mc, passes, C);
  }
  if (!input.currentClasses) throw new Error(`${acquisition} acquisition needs the current labels + pseudo-labels`);
  const table = jointTable(input.currentClasses, clustering.assignments, C, clustering.k);
  const clusterOf = new Int32Array(count);
  for (let i = 0; i < count; i++) clusterOf[i] = clustering.assignments[input.pool[positions ? positions[i] : i]];
  if (acquisition === "crossentropy") return scoreCrossEntropy(proba, C, clusterOf, table);
  if (acquisition === "hardnmi" || !clustering.soft) {
    // a clustering without a soft version: f(c|x) is one-hot, and Soft NMI reduces to Hard NMI
    return scoreHardNmi(proba, C, clusterOf, table);
  }
  const K = clustering.k;
  const soft = new Float32Array(count * K);
  for (let i = 0; i < count; i++) {
    const row = input.pool[positions ? positions[i] : i];
    for (let c = 0; c < K; c++) soft[i * K + c] = clustering.soft[row * K + c];
  }
  return scoreSoftNmi(proba, C, soft, table);
}

/** rows `positions` of a [rows x width] matrix, in that order */
function gatherRows(source: Float32Array, positions: Int32Array, width: number): Float32Array {
  const out = new Float32Array(positions.length * width);
  for (let i = 0; i < positions.length; i++) for (let j = 0, from = positions[i] * width; j < width; j++) out[i * width + j] = source[from + j];
  return out;
}

/** Every pool row's score, the mean over the clusterings (one for clustering-independent acquisitions): the ranking. */
export function meanScores(input: AcquireInput, acquisition: Acquisition): Float64Array {
  const scores = new Float64Array(input.pool.length);
  const clusterings = PER_CLUSTERING.has(acquisition) ? input.clusterings : input.clusterings.slice(0, 1);
  for (const c of clusterings) {
    // the whole pool in order: pi and the MC passes are read in place, not copied per clustering
    const s = scorePool(input, acquisition, c, null);
    for (let i = 0; i < s.length; i++) scores[i] += s[i] / clusterings.length;
  }
  return scores;
}

/**
 * The next batch: draws in draw order, each with its score and inclusion probability q; and the
 * pool's scores (mean mode), the ranking later draws from the same pool can reuse.
 */
export function acquireBatch(input: AcquireInput, options: AcquireOptions, random: Random): { design: Design; draws: DesignDraw[]; scores: Float64Array | null } {
  const design = options.design ?? DEFAULT_DESIGN[options.acquisition];
  const eps = options.eps ?? 0.1;
  const all = Int32Array.from({ length: input.pool.length }, (_, i) => i);
  const perClustering = options.scoreMode === "per-clustering" && PER_CLUSTERING.has(options.acquisition) && input.clusterings.length > 1;

  if (!perClustering) {
    const scores = meanScores(input, options.acquisition);
    return { design, draws: drawByDesign(design, input.pool, scores, options.n, random, eps), scores };
  }

  // per-clustering: clustering j draws its share from what the earlier ones left, by its own
  // score; each q is conditional on the earlier sub-draws
  const draws: DesignDraw[] = [];
  const taken = new Set<number>();
  const k = input.clusterings.length;
  input.clusterings.forEach((c, j) => {
    const share = Math.floor(options.n / k) + (j < options.n % k ? 1 : 0);
    if (share === 0) return;
    const positions = all.filter((p) => !taken.has(input.pool[p]));
    const scores = scorePool(input, options.acquisition, c, positions);
    const rows = Int32Array.from(positions, (p) => input.pool[p]);
    for (const d of drawByDesign(design, rows, scores, share, random, eps)) {
      taken.add(d.row);
      draws.push(d);
    }
  });
  return { design, draws, scores: null };
}
