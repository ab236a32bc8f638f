/**
 * Davies-Bouldin index (Davies & Bouldin 1979): with s_k the mean distance of cluster k's points
 * to its centroid and d_kl the distance between centroids,
 *   DB = (1 / K) sum_k max_{l != k} (s_k + s_l) / d_kl,
 * as sklearn.metrics.davies_bouldin_score: 0.0 when all s_k or all d_kl are ~0 (allclose), and
 * coinciding centroids (d_kl = 0) are skipped.
 */
import type { Labels } from "./labels";
import { centroids, clusteredPoints } from "./points";

/** numpy.allclose(values, 0): every |v| <= 1e-8 */
function allNearZero(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (Math.abs(values[i]) > 1e-8) return false;
  return true;
}

export function daviesBouldin(x: Float32Array | Float64Array, labels: Labels): number {
  const p = clusteredPoints(x, labels);
  const { n, d, k, ids, sizes } = p;
  const { centroids: c } = centroids(p);
  const intra = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const o = ids[i] * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += (x[i * d + j] - c[o + j]) ** 2;
    intra[ids[i]] += Math.sqrt(s);
  }
  for (let q = 0; q < k; q++) intra[q] /= sizes[q];
  const between = new Float64Array(k * k);
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += (c[a * d + j] - c[b * d + j]) ** 2;
      between[a * k + b] = between[b * k + a] = Math.sqrt(s);
    }
  }
  if (allNearZero(intra) || allNearZero(between)) return 0.0;
  let total = 0;
  for (let a = 0; a < k; a++) {
    let worst = 0;
    for (let b = 0; b < k; b++) {
      const dist = between[a * k + b];
      if (b === a || dist === 0) continue;
      worst = Math.max(worst, (intra[a] + intra[b]) / dist);
    }
    total += worst;
  }
  return total / k;
}
