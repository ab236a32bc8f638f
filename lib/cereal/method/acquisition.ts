/**
 * Acquisition scores (paper section 4; Algorithm 1 step 4): how much labelling each unlabeled
 * item is worth. Higher is better. Probabilities pi(.|x) are row-major [pool x C], aligned with
 * the pool. The NMI-based scores use the joint table of a test clustering against the current
 * labels + pseudo-labels: joint[y * K + c] counts items of reference class y in cluster c.
 */
import { entropyOfCounts } from "@/lib/metrics";

export const ACQUISITIONS = ["random", "maxentropy", "bald", "crossentropy", "hardnmi", "softnmi", "residual"] as const;
export type Acquisition = (typeof ACQUISITIONS)[number];

/** A joint count table of reference classes (rows, C) against clusters (columns, K). */
export interface JointTable {
  readonly classes: number;
  readonly clusters: number;
  /** row-major C x K counts */
  readonly counts: Float64Array;
}

/** Counts items by (class, cluster): the table the NMI scores read. */
export function jointTable(classOf: Int32Array, clusterOf: Int32Array, classes: number, clusters: number): JointTable {
  const counts = new Float64Array(classes * clusters);
  for (let i = 0; i < classOf.length; i++) counts[classOf[i] * clusters + clusterOf[i]]++;
  return { classes, clusters, counts };
}

/**
 * Pointwise mutual information terms I[c; y] = p(c,y) log(p(c,y) / (p(c) p(y))) (0 where
 * p(c,y) = 0) and the normaliser (H_Y + H_C) / 2 of arithmetic NMI.
 */
export function pointwiseMi(table: JointTable): { terms: Float64Array; normaliser: number } {
  const { classes, clusters, counts } = table;
  const classSums = new Float64Array(classes);
  const clusterSums = new Float64Array(clusters);
  let total = 0;
  for (let y = 0; y < classes; y++)
    for (let c = 0; c < clusters; c++) {
      const v = counts[y * clusters + c];
      classSums[y] += v;
      clusterSums[c] += v;
      total += v;
    }
  const terms = new Float64Array(classes * clusters);
  for (let y = 0; y < classes; y++)
    for (let c = 0; c < clusters; c++) {
      const v = counts[y * clusters + c];
      if (v > 0) terms[y * clusters + c] = (v / total) * Math.log((v * total) / (classSums[y] * clusterSums[c]));
    }
  return { terms, normaliser: (entropyOfCounts(classSums) + entropyOfCounts(clusterSums)) / 2 };
}

/** MaxEntropy: H[pi(.|x)] */
export function scoreMaxEntropy(proba: Float32Array, classes: number): Float64Array {
  const n = proba.length / classes;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0;
    for (let y = 0; y < classes; y++) {
      const p = proba[i * classes + y];
      if (p > 0) h -= p * Math.log(p);
    }
    scores[i] = h;
  }
  return scores;
}

/**
 * Active inference's score (Zrnic & Candes 2024, "Active statistical inference"): the predicted
 * residual's standard deviation sqrt(E||onehot(y) - pi||^2) = sqrt(1 - sum_y pi(y|x)^2) under
 * pi, the spread a label removes from a prediction-powered estimate. Drawn proportionally with a
 * uniform share tau (the design's eps) and weighted by 1/q, it is that paper's design; not one of
 * the paper's acquisitions (issue #23 item 2).
 */
export function scoreResidual(proba: ArrayLike<number>, classes: number): Float64Array {
  const n = proba.length / classes;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sq = 0;
    for (let y = 0; y < classes; y++) sq += proba[i * classes + y] ** 2;
    scores[i] = Math.sqrt(Math.max(0, 1 - sq));
  }
  return scores;
}

/**
 * BALD (Houlsby et al. 2011): I[y; w | x] = H[mean_t pi_t(.|x)] - mean_t H[pi_t(.|x)] over MC
 * dropout passes; mc is [passes x pool x C].
 */
export function scoreBald(mc: Float32Array, passes: number, classes: number): Float64Array {
  const n = mc.length / (passes * classes);
  const scores = new Float64Array(n);
  const mean = new Float64Array(classes);
  for (let i = 0; i < n; i++) {
    mean.fill(0);
    let meanEntropy = 0;
    for (let t = 0; t < passes; t++) {
      const o = (t * n + i) * classes;
      for (let y = 0; y < classes; y++) {
        const p = mc[o + y];
        mean[y] += p / passes;
        if (p > 0) meanEntropy -= (p * Math.log(p)) / passes;
      }
    }
    let entropyOfMean = 0;
    for (let y = 0; y < classes; y++) if (mean[y] > 0) entropyOfMean -= mean[y] * Math.log(mean[y]);
    // clamp the rounding noise of two nearly equal entropies
    scores[i] = Math.max(0, entropyOfMean - meanEntropy);
  }
  return scores;
}

/** The reference class each cluster maps to in the table: its most frequent class (ties: the lower id). */
export function clusterMajorityClass(table: JointTable): Int32Array {
  const { classes, clusters, counts } = table;
  const map = new Int32Array(clusters);
  for (let c = 0; c < clusters; c++) {
    let best = 0;
    for (let y = 1; y < classes; y++) if (counts[y * clusters + c] > counts[best * clusters + c]) best = y;
    map[c] = best;
  }
  return map;
}

/** CrossEntropy: -log pi(m(c(x)) | x), m = the class x's cluster maps to (clusterMajorityClass). */
export function scoreCrossEntropy(proba: Float32Array, classes: number, clusterOfPool: Int32Array, table: JointTable): Float64Array {
  const map = clusterMajorityClass(table);
  const scores = new Float64Array(clusterOfPool.length);
  for (let i = 0; i < clusterOfPool.length; i++) {
    const p = proba[i * classes + map[clusterOfPool[i]]];
    scores[i] = -Math.log(Math.max(p, 1e-12));
  }
  return scores;
}

/** Hard NMI: 1 - sum_y pi(y|x) I[c(x); y] / ((H_Y + H_C) / 2). */
export function scoreHardNmi(proba: Float32Array, classes: number, clusterOfPool: Int32Array, table: JointTable): Float64Array {
  const { terms, normaliser } = pointwiseMi(table);
  const K = table.clusters;
  const scores = new Float64Array(clusterOfPool.length);
  for (let i = 0; i < clusterOfPool.length; i++) {
    if (normaliser <= 0) {
      scores[i] = 1;
      continue;
    }
    const c = clusterOfPool[i];
    let s = 0;
    for (let y = 0; y < classes; y++) s += proba[i * classes + y] * terms[y * K + c];
    scores[i] = 1 - s / normaliser;
  }
  return scores;
}

/**
 * Soft NMI: 1 - sum_y sum_c f(c|x) pi(y|x) I[c; y] / ((H_Y + H_C) / 2), with f(c|x) the soft
 * clustering's row for x; softOfPool is [pool x K].
 */
export function scoreSoftNmi(proba: Float32Array, classes: number, softOfPool: Float32Array, table: JointTable): Float64Array {
  const { terms, normaliser } = pointwiseMi(table);
  const K = table.clusters;
  const n = softOfPool.length / K;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (normaliser <= 0) {
      scores[i] = 1;
      continue;
    }
    let s = 0;
    for (let y = 0; y < classes; y++) {
      const p = proba[i * classes + y];
      if (p === 0) continue;
      for (let c = 0; c < K; c++) s += p * softOfPool[i * K + c] * terms[y * K + c];
    }
    scores[i] = 1 - s / normaliser;
  }
  return scores;
}
