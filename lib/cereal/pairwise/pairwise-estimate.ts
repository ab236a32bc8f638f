/**
 * Pseudo-labels and estimates from a pairwise surrogate (paper section 5.3, appendix B). Answers
 * to "same class or not?" name no class, so every item's class is its argmax cluster id under
 * the surrogate, the items that appear in answered pairs included: the surrogate was fitted to
 * those pairs, and its argmax is the only class id they have. Metrics are invariant to renaming
 * classes, so the ids need no mapping to reference classes.
 *
 * Two strategies (the paper's): `all` estimates on every item; `thresholded` only on the items
 * with max_k p(k|x) > threshold (default 0.5) plus the directly labeled ones (items in answered
 * pairs, whatever their confidence).
 */
import type { EstimatorInput } from "../method/estimators";
import type { LabeledPairs } from "./pair-surrogate";
import { sameProbability } from "./pair-surrogate";
import type { Random } from "../../random/named-streams";

export type PseudoLabelStrategy = "all" | "thresholded";

/** rows that appear in at least one answered pair, increasing */
export function pairedRows(pairs: LabeledPairs, n: number): Int32Array {
  const mark = new Uint8Array(n);
  for (let i = 0; i < pairs.a.length; i++) mark[pairs.a[i]] = mark[pairs.b[i]] = 1;
  return Int32Array.from({ length: n }, (_, r) => r).filter((r) => mark[r] === 1);
}

/**
 * The estimator input of a pairwise round: no labeled rows (no item has a class answer), and
 * as "unlabeled" rows the ones the strategy keeps, with their p(.|x). argmaxEstimator then builds
 * the table of argmax cluster ids against a clustering, and bootstrapIntervals samples the
 * pseudo-labels from p (the surrogate's own uncertainty).
 */
export function pairwiseEstimatorInput(
  proba: Float32Array,
  numOutputs: number,
  n: number,
  strategy: PseudoLabelStrategy,
  paired: Int32Array,
  threshold = 0.5,
): EstimatorInput {
  let rows: Int32Array;
  if (strategy === "all") rows = Int32Array.from({ length: n }, (_, r) => r);
  else {
    const keep = new Uint8Array(n);
    for (const r of paired) keep[r] = 1;
    for (let r = 0; r < n; r++) {
      let max = 0;
      for (let c = 0; c < numOutputs; c++) max = Math.max(max, proba[r * numOutputs + c]);
      if (max > threshold) keep[r] = 1;
    }
    rows = Int32Array.from({ length: n }, (_, r) => r).filter((r) => keep[r] === 1);
  }
  const kept = new Float32Array(rows.length * numOutputs);
  rows.forEach((r, i) => kept.set(proba.subarray(r * numOutputs, (r + 1) * numOutputs), i * numOutputs));
  return {
    n,
    numClasses: numOutputs,
    labeled: { rows: new Int32Array(0), labels: new Int32Array(0) },
    unlabeled: rows,
    proba: kept,
    draws: [],
  };
}

/** Share of pairs whose prediction P_ij > 0.5 agrees with the answer; null without pairs. */
export function pairAccuracy(proba: Float32Array, numOutputs: number, pairs: LabeledPairs): number | null {
  if (pairs.a.length === 0) return null;
  let right = 0;
  for (let i = 0; i < pairs.a.length; i++) {
    const predicted = sameProbability(proba, numOutputs, pairs.a[i], pairs.b[i]) > 0.5 ? 1 : 0;
    if (predicted === pairs.same[i]) right++;
  }
  return right / pairs.a.length;
}

/**
 * Splits answered pairs into training and held-out ones: a seeded uniform share `fraction` is
 * held out (none below `minPairs` answers, where every pair is needed for training).
 */
export function holdOutPairs(
  pairs: LabeledPairs,
  fraction: number,
  random: Random,
  minPairs = 20,
): { train: LabeledPairs; heldOut: LabeledPairs } {
  const m = pairs.a.length;
  const size = m >= minPairs ? Math.floor(m * fraction) : 0;
  const order = random.shuffle(Int32Array.from({ length: m }, (_, i) => i));
  const pick = (idx: Int32Array): LabeledPairs => ({
    a: Int32Array.from(idx, (i) => pairs.a[i]),
    b: Int32Array.from(idx, (i) => pairs.b[i]),
    same: Uint8Array.from(idx, (i) => pairs.same[i]),
  });
  // training pairs keep their draw order (sorted), so the fit does not depend on the shuffle beyond the split
  return { heldOut: pick(order.subarray(0, size)), train: pick(order.slice(size).sort()) };
}
