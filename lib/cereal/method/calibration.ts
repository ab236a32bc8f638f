/**
 * Temperature scaling of the surrogate (Guo et al. 2017, "On Calibration of Modern Neural
 * Networks", section 4.2) and the expected calibration error (their eq. 3). The surrogate's
 * probabilities feed the soft table and the prediction-powered correction; an overconfident pi
 * makes the soft table lean towards the argmax and the correction's variance look small.
 *
 * The temperature is fitted honestly: on the predictions each labeled item received from the
 * model of the round *before* it was labeled (out-of-sample.ts), never on the model's own
 * training labels, which it has memorised. The surrogate reports probabilities, not logits;
 * softmax(z / T) = p^(1/T) / sum p^(1/T), so scaling log p is the same map.
 */

import { goldenSectionMinimum } from "./golden-section";

/** p_T(y|x) proportional to p(y|x)^(1/T), per row of a [rows x C] matrix. T = 1 returns a copy. */
export function temperatureScale(proba: Float32Array, numClasses: number, temperature: number): Float32Array {
  const out = new Float32Array(proba.length);
  const inv = 1 / temperature;
  const rows = proba.length / numClasses;
  for (let i = 0; i < rows; i++) {
    const o = i * numClasses;
    // log-space with the row maximum subtracted: p^(1/T) underflows for small p and T << 1
    let maxLog = -Infinity;
    for (let y = 0; y < numClasses; y++) maxLog = Math.max(maxLog, Math.log(Math.max(proba[o + y], 1e-30)) * inv);
    let sum = 0;
    for (let y = 0; y < numClasses; y++) {
      const v = Math.exp(Math.log(Math.max(proba[o + y], 1e-30)) * inv - maxLog);
      out[o + y] = v;
      sum += v;
    }
    for (let y = 0; y < numClasses; y++) out[o + y] /= sum;
  }
  return out;
}

/** mean negative log-likelihood of the labels under p^(1/T) (normalised) */
export function temperatureNll(proba: Float32Array, labels: Int32Array, numClasses: number, temperature: number): number {
  const inv = 1 / temperature;
  let total = 0;
  for (let i = 0; i < labels.length; i++) {
    const o = i * numClasses;
    let maxLog = -Infinity;
    for (let y = 0; y < numClasses; y++) maxLog = Math.max(maxLog, Math.log(Math.max(proba[o + y], 1e-30)) * inv);
    let sum = 0;
    for (let y = 0; y < numClasses; y++) sum += Math.exp(Math.log(Math.max(proba[o + y], 1e-30)) * inv - maxLog);
    total -= Math.log(Math.max(proba[o + labels[i]], 1e-30)) * inv - maxLog - Math.log(sum);
  }
  return labels.length > 0 ? total / labels.length : 0;
}

export interface TemperatureFit {
  readonly temperature: number;
  /** NLL at T = 1 and at the fitted T, on the pairs it was fitted on */
  readonly nllBefore: number;
  readonly nllAfter: number;
  readonly n: number;
}

/**
 * The T in [1/20, 20] minimising the NLL (Guo et al. eq. for temperature scaling), by golden-section
 * search on log T (the NLL is convex in 1/T). Fewer than `minPairs` pairs: T = 1 (no evidence).
 */
export function fitTemperature(proba: Float32Array, labels: Int32Array, numClasses: number, minPairs = 20): TemperatureFit {
  const n = labels.length;
  const before = temperatureNll(proba, labels, numClasses, 1);
  if (n < minPairs) return { temperature: 1, nllBefore: before, nllAfter: before, n };
  const f = (logT: number) => temperatureNll(proba, labels, numClasses, Math.exp(logT));
  const temperature = Math.exp(goldenSectionMinimum(f, Math.log(1 / 20), Math.log(20), 40));
  const after = temperatureNll(proba, labels, numClasses, temperature);
  // a flat likelihood (e.g. every prediction one-hot and right) gives no reason to move
  return after < before ? { temperature, nllBefore: before, nllAfter: after, n } : { temperature: 1, nllBefore: before, nllAfter: before, n };
}

/**
 * Expected calibration error (Guo et al. 2017 eq. 3; Naeini et al. 2015): rows binned by their
 * confidence max_y p(y|x) into `bins` equal-width bins, ECE = sum_b |B_b|/n |acc(B_b) - conf(B_b)|.
 * Optional weights (inverse inclusion probabilities) make it an estimate over the pool.
 */
export function expectedCalibrationError(proba: Float32Array, labels: Int32Array, numClasses: number, bins = 10, weights?: ArrayLike<number>): number {
  const n = labels.length;
  if (n === 0) return Number.NaN;
  const count = new Float64Array(bins);
  const correct = new Float64Array(bins);
  const confidence = new Float64Array(bins);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const o = i * numClasses;
    let best = 0;
    for (let y = 1; y < numClasses; y++) if (proba[o + y] > proba[o + best]) best = y;
    const conf = proba[o + best];
    const b = Math.min(bins - 1, Math.floor(conf * bins));
    const w = weights ? weights[i] : 1;
    count[b] += w;
    confidence[b] += w * conf;
    if (best === labels[i]) correct[b] += w;
    total += w;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b] > 0) ece += (count[b] / total) * Math.abs(correct[b] / count[b] - confidence[b] / count[b]);
  return ece;
}
