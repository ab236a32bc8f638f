/**
 * How good is the surrogate, measured where it cannot cheat: every labeled row of a batch was
 * predicted by the model of the round before it was labeled (out-of-sample.ts), so that model's
 * accuracy on the batch is an out-of-sample measure, weighted by 1/q back to the pool it was drawn
 * from (weights.ts). A surrogate with FixMatch can confirm its own mistakes on overlapping classes
 * (13-37% accuracy on the 20-class synthetic bundle of issue #12) while its training loss looks
 * fine; this measure sees it. Below `weakAccuracy` the round flags the surrogate weak, so the
 * server can store it and the dashboard warn that estimates leaning on pseudo-labels are suspect
 * (the ppi estimators stay unbiased: their lambda falls towards 0, the labels-only estimate).
 *
 * Accuracy is not enough for the soft table, which sums pi itself: a surrogate that is right but
 * diffuse (the kNN fake on digits: 80-97% right, its mean confidence max_y pi 6-16 points below
 * that) spreads every cell's mass over wrong classes, and its soft NMI came out 0.08-0.33 low,
 * worse than Random. So the same out-of-sample predictions give a calibration reading: the
 * under-confidence, 1/q-weighted accuracy minus 1/q-weighted confidence (the signed calibration
 * error of the top class, ECE with one bin). Above `diffuseGap` (0.05, about two standard errors
 * of an accuracy over 150 rows; read from 20 rows on) pi is `diffuse`, and stays so in later rounds:
 * the reading fades as the accuracy nears 1 while the soft table's bias does not (kNN on digits,
 * seed 3: 0.036-0.044 at 300-450 labels, its soft NMI 0.07 low). A little over-confidence (FixMatch: 1-2
 * points on digits) is harmless: a sharp pi moves the soft table towards the argmax table. A lot of it
 * with a middling accuracy is not (FixMatch on weak-c5: 60-67% right, 15-29 points overconfident, the
 * soft NMI 0.05-0.10 low, worse than Random), and `weak` misses it above 60%: isOverconfident reads it.
 */
import type { Draw } from "./designs";
import type { LabeledRows } from "./surrogate";
import type { OutOfSampleRecord } from "./out-of-sample";
import { batchesByRound, inverseInclusionWeight, weightedAccuracy } from "./weights";

export interface SurrogateHealth {
  /** out-of-sample accuracy of the previous round's model on the newest batch; null in round 0 */
  readonly latestAccuracy: number | null;
  readonly latestCount: number;
  /** the same over the last `window` batches with predictions (each batch's weighted accuracy, averaged by size) */
  readonly recentAccuracy: number | null;
  readonly recentCount: number;
  /** mean confidence max_y pi(y|x) of those predictions: far above the accuracy means overconfident */
  readonly recentConfidence: number | null;
  /** recentAccuracy below the threshold */
  readonly weak: boolean;
  /** the same accuracy minus the mean confidence, both 1/q-weighted: above 0 the predictions are underconfident */
  readonly recentUnderconfidence: number | null;
  /** the under-confidence above `diffuseGap` in this window or any earlier one: pi spreads over classes the items are not in, so the soft table does */
  readonly diffuse: boolean;
}

export interface HealthOptions {
  /** default 0.6: below it, argmax and soft tables are dominated by wrong pseudo-labels */
  readonly weakAccuracy?: number;
  /** batches pooled (default 3): recent models are the ones in use */
  readonly window?: number;
  /** default 0.05: an under-confidence above it flags pi as diffuse */
  readonly diffuseGap?: number;
  /** absent (the default): `diffuseGap` alone; else a window's under-confidence must also exceed diffuseZ(k) of its own standard
   * errors (CalibrationWindow.se), k = 1, 2, ... the window's place among those read so far (a constant, or a z that grows with k:
   * one reading in any window flags pi for good, so the chance of a false one adds up over the windows) */
  readonly diffuseZ?: (window: number) => number;
  /** default OVERCONFIDENT_GAP: an under-confidence below minus it reads pi as overconfident (isOverconfident) */
  readonly overconfidentGap?: number;
}

/** the over-confidence (confidence minus accuracy) above which the soft table is not trusted: FixMatch on weak-c5
 * (50-68% right) read 0.13-0.44, on demo 0.13-0.39 (52-78% right), on digits 0.01-0.02 (ESTIMATORS.md,
 * "The overconfident middling surrogate": 0.15 and 0.2 cost demo more than 0.25 did) */
export const OVERCONFIDENT_GAP = 0.25;

/** one window's calibration reading: its labeled rows with predictions, and accuracy minus confidence over them */
export interface CalibrationWindow {
  readonly count: number;
  readonly gap: number;
  /** the gap's standard error: per batch sqrt(sum w_i^2 (d_i - gap_b)^2) / sum w_i, d_i = [right] - confidence, the batches
   * combined with the gap's weights (their row counts); absent where a reading is made by hand */
  readonly se?: number;
}

/** rows a calibration reading needs: under 20 the gap says little (one wrong row moves it by 5 points or more) */
export const CALIBRATION_MIN_ROWS = 20;

/** the earlier models' out-of-sample accuracy from which a calibrated reading lets a round draw by the residual score (round.ts roundAcquisition) */
export const RESIDUAL_MIN_ACCURACY = 0.9;
/** RESIDUAL_MIN_ACCURACY as a whole percentage, for the texts that say it */
export const RESIDUAL_MIN_ACCURACY_PERCENT = Math.round(RESIDUAL_MIN_ACCURACY * 100);

/** whether a window reads pi as overconfident: from 20 rows on (as `diffuse`), its gap below minus `overconfidentGap` */
export function readsOverconfident(window: CalibrationWindow, options: HealthOptions = {}): boolean {
  return window.count >= CALIBRATION_MIN_ROWS && window.gap < -(options.overconfidentGap ?? OVERCONFIDENT_GAP);
}

export function surrogateHealth(
  labeled: LabeledRows,
  draws: readonly Draw[],
  record: OutOfSampleRecord | undefined,
  options: HealthOptions = {},
): SurrogateHealth {
  return healthReading(labeled, draws, record, options).health;
}

/**
 * The health and whether pi was read overconfident in any window so far (readsOverconfident; it
 * stays, like `diffuse`: a surrogate that once hid a third of its mistakes behind its confidence
 * does not earn the soft table back by a window or two of smaller gaps; measured on weak-c5, where
 * the latest window alone left 2 of 4 seeds worse than Random). Not a field of SurrogateHealth, so
 * the stored health record keeps its shape.
 */
export function guardReading(
  labeled: LabeledRows,
  draws: readonly Draw[],
  record: OutOfSampleRecord | undefined,
  options: HealthOptions = {},
): { health: SurrogateHealth; overconfident: boolean } {
  const { health, gaps } = healthReading(labeled, draws, record, options);
  return { health, overconfident: gaps.some((g) => readsOverconfident(g, options)) };
}

function healthReading(
  labeled: LabeledRows,
  draws: readonly Draw[],
  record: OutOfSampleRecord | undefined,
  options: HealthOptions,
): { health: SurrogateHealth; gaps: CalibrationWindow[] } {
  const threshold = options.weakAccuracy ?? 0.6;
  const window = options.window ?? 3;
  const perBatch: { accuracy: number; count: number; confidence: number; weightedConfidence: number; gapVariance: number }[] = [];
  for (const { positions } of batchesByRound(draws)) {
    const predicted: number[] = [];
    const truth: number[] = [];
    const weights: number[] = [];
    const confidences: number[] = [];
    let probability = true;
    for (const p of positions) {
      const prediction = record?.predictions.get(labeled.rows[p]);
      if (!prediction) continue;
      let best = 0;
      for (let y = 1; y < prediction.calibrated.length; y++) if (prediction.calibrated[y] > prediction.calibrated[best]) best = y;
      predicted.push(best);
      truth.push(labeled.labels[p]);
      confidences.push(prediction.calibrated[best]);
      const w = inverseInclusionWeight(draws[p]);
      if (w === null) probability = false;
      weights.push(w ?? 1);
    }
    if (predicted.length === 0) continue;
    const w = probability ? weights : confidences.map(() => 1);
    const weightSum = w.reduce((a, b) => a + b, 0);
    const accuracy = weightedAccuracy(predicted, truth, probability ? weights : null);
    const weightedConfidence = confidences.reduce((a, c, i) => a + c * w[i], 0) / weightSum;
    // the ratio estimator's linearised variance of accuracy minus confidence
    const gap = accuracy - weightedConfidence;
    const gapVariance = predicted.reduce((a, y, i) => a + (w[i] * ((y === truth[i] ? 1 : 0) - confidences[i] - gap)) ** 2, 0) / weightSum ** 2;
    perBatch.push({ accuracy, count: predicted.length, confidence: confidences.reduce((a, b) => a + b, 0) / predicted.length, weightedConfidence, gapVariance });
  }
  const latest = perBatch[perBatch.length - 1] ?? null;
  const recent = perBatch.slice(-window);
  const recentCount = recent.reduce((a, b) => a + b.count, 0);
  const recentAccuracy = recentCount > 0 ? recent.reduce((a, b) => a + b.accuracy * b.count, 0) / recentCount : null;
  const recentConfidence = recentCount > 0 ? recent.reduce((a, b) => a + b.confidence * b.count, 0) / recentCount : null;
  // accuracy minus weighted confidence over the `window` batches ending at each batch; the last is the recent one
  const gaps = perBatch.map((_, i): CalibrationWindow => {
    const w = perBatch.slice(Math.max(0, i + 1 - window), i + 1);
    const count = w.reduce((a, b) => a + b.count, 0);
    const gap = w.reduce((a, b) => a + (b.accuracy - b.weightedConfidence) * b.count, 0) / count;
    return { count, gap, se: Math.sqrt(w.reduce((a, b) => a + b.gapVariance * b.count ** 2, 0)) / count };
  });
  const underconfidence = gaps.length > 0 ? gaps[gaps.length - 1].gap : null;
  const gapLimit = options.diffuseGap ?? 0.05;
  const z = options.diffuseZ ?? (() => 0);
  const health: SurrogateHealth = {
    latestAccuracy: latest?.accuracy ?? null,
    latestCount: latest?.count ?? 0,
    recentAccuracy,
    recentCount,
    recentConfidence,
    weak: recentAccuracy !== null && recentAccuracy < threshold,
    recentUnderconfidence: underconfidence,
    // once read, it stays
    diffuse: gaps.some((g, i) => g.count >= CALIBRATION_MIN_ROWS && g.gap > gapLimit && g.gap > z(i + 1) * g.se!),
  };
  return { health, gaps };
}
