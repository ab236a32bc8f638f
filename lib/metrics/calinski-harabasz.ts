/**
 * Calinski-Harabasz index (Calinski & Harabasz 1974): the ratio of between- to within-cluster
 * dispersion, CH = [sum_k n_k |c_k - c|^2 / (K - 1)] / [sum_k sum_{x in k} |x - c_k|^2 / (N - K)],
 * as sklearn.metrics.calinski_harabasz_score (1.0 when the within dispersion is 0).
 */
import type { Labels } from "./labels";
import { centroids, clusteredPoints } from "./points";

export function calinskiHarabasz(x: Float32Array | Float64Array, labels: Labels): number {
  const p = clusteredPoints(x, labels);
  const { n, d, k, ids, sizes } = p;
  const { centroids: c, mean } = centroids(p);
  let extra = 0;
  for (let q = 0; q < k; q++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += (c[q * d + j] - mean[j]) ** 2;
    extra += sizes[q] * s;
  }
  let intra = 0;
  for (let i = 0; i < n; i++) {
    const o = ids[i] * d;
    for (let j = 0; j < d; j++) intra += (x[i * d + j] - c[o + j]) ** 2;
  }
  return intra === 0 ? 1.0 : (extra * (n - k)) / (intra * (k - 1));
}
