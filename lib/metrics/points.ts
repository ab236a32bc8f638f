/**
 * A clustering of points for the internal metrics: X is a row-major Float32Array [N, D] (D is
 * inferred from the number of labels), labels are any integers. Arithmetic is in float64, as
 * scikit-learn computes on float64 input.
 */
import { denseLabels, type Labels } from "./labels";

export interface ClusteredPoints {
  readonly n: number;
  readonly d: number;
  readonly x: Float32Array | Float64Array;
  /** cluster ids 0..k-1 */
  readonly ids: Int32Array;
  readonly k: number;
  readonly sizes: Float64Array;
}

/** As sklearn's check_number_of_labels: 2 <= clusters <= N - 1. */
export function clusteredPoints(x: Float32Array | Float64Array, labels: Labels): ClusteredPoints {
  const n = labels.length;
  const d = n > 0 ? x.length / n : 0;
  if (n === 0 || !Number.isInteger(d) || d < 1) {
    throw new RangeError(`points of length ${x.length} are not an [N = ${n}, D] matrix`);
  }
  const { ids, k } = denseLabels(labels);
  if (k < 2 || k > n - 1) {
    throw new RangeError(`number of labels is ${k}; valid values are 2 to n_samples - 1 (${n - 1}) inclusive`);
  }
  const sizes = new Float64Array(k);
  for (let i = 0; i < n; i++) sizes[ids[i]]++;
  return { n, d, x, ids, k, sizes };
}

/** Cluster means (k x D) and the overall mean (D). */
export function centroids(p: ClusteredPoints): { centroids: Float64Array; mean: Float64Array } {
  const { n, d, x, ids, k, sizes } = p;
  const c = new Float64Array(k * d);
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    const o = ids[i] * d;
    for (let j = 0; j < d; j++) {
      const v = x[i * d + j];
      c[o + j] += v;
      mean[j] += v;
    }
  }
  for (let q = 0; q < k; q++) for (let j = 0; j < d; j++) c[q * d + j] /= sizes[q];
  for (let j = 0; j < d; j++) mean[j] /= n;
  return { centroids: c, mean };
}
