/**
 * Silhouette coefficient (Rousseeuw 1987): for item i with a(i) the mean distance to the other
 * members of its cluster and b(i) the smallest mean distance to another cluster,
 *   s(i) = (b(i) - a(i)) / max(a(i), b(i)),  s(i) = 0 in a singleton cluster,
 * and the score is the mean of s(i), as sklearn.metrics.silhouette_score with metric 'euclidean'
 * or 'cosine' (euclidean by sklearn's |x|^2 + |y|^2 - 2 x.y, cosine as 1 - x.y / (|x| |y|)
 * clipped to [0, 2], zero vectors left unnormalized).
 *
 * Exact is O(N^2 D). Up to maxExact items (default 20 000) the score is exact; above, it is the
 * exact score of a uniform sample of sampleSize items (default maxExact) drawn with `seed`,
 * as sklearn's sample_size/random_state, and the result says so.
 */
import type { Labels } from "./labels";
import { clusteredPoints } from "./points";
import { createRandom, sampleWithoutReplacement } from "./random";

export type SilhouetteMetric = "euclidean" | "cosine";

export interface SilhouetteOptions {
  readonly metric?: SilhouetteMetric;
  /** largest N scored exactly (default 20 000) */
  readonly maxExact?: number;
  /** items drawn when N > maxExact (default maxExact) */
  readonly sampleSize?: number;
  /** seed of the sample (default 0) */
  readonly seed?: number;
}

export interface SilhouetteResult {
  readonly score: number;
  /** number of items the score was computed on (N when exact) */
  readonly sampleSize: number;
  readonly sampled: boolean;
}

/** n x k sums over clusters of distances beyond this many doubles are computed row by row. */
const SYMMETRIC_LIMIT = 1 << 23;
const BLOCK = 4;

interface Prepared {
  readonly n: number;
  readonly d: number;
  /** float64 rows (normalized for cosine) */
  readonly x: Float64Array;
  readonly sq: Float64Array;
  readonly cosine: boolean;
}

function prepare(x: Float32Array | Float64Array, n: number, d: number, metric: SilhouetteMetric): Prepared {
  const out = Float64Array.from(x);
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0, o = i * d; j < d; j++) s += out[o + j] * out[o + j];
    sq[i] = s;
  }
  if (metric === "cosine") {
    for (let i = 0; i < n; i++) {
      const norm = Math.sqrt(sq[i]);
      if (norm === 0) continue;
      for (let j = 0, o = i * d; j < d; j++) out[o + j] /= norm;
    }
  }
  return { n, d, x: out, sq, cosine: metric === "cosine" };
}

function distance(p: Prepared, i: number, j: number, dot: number): number {
  if (p.cosine) return Math.min(Math.max(1 - dot, 0), 2);
  return Math.sqrt(Math.max(p.sq[i] + p.sq[j] - 2 * dot, 0));
}

function dot(x: Float64Array, a: number, b: number, d: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) s += x[a + t] * x[b + t];
  return s;
}

/**
 * sums[i * k + c] = sum of distances from i to the members of cluster c. Each pair is computed
 * once, four rows at a time against each later row (one load of x_j feeds four products).
 */
function clusterDistanceSums(p: Prepared, ids: Int32Array, k: number): Float64Array {
  const { n, d, x } = p;
  const sums = new Float64Array(n * k);
  let i0 = 0;
  for (; i0 + BLOCK <= n; i0 += BLOCK) {
    const o0 = i0 * d;
    const o1 = o0 + d;
    const o2 = o1 + d;
    const o3 = o2 + d;
    const c0 = ids[i0];
    const c1 = ids[i0 + 1];
    const c2 = ids[i0 + 2];
    const c3 = ids[i0 + 3];
    for (let j = i0 + BLOCK; j < n; j++) {
      const oj = j * d;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let t = 0; t < d; t++) {
        const v = x[oj + t];
        s0 += x[o0 + t] * v;
        s1 += x[o1 + t] * v;
        s2 += x[o2 + t] * v;
        s3 += x[o3 + t] * v;
      }
      const cj = ids[j];
      const d0 = distance(p, i0, j, s0);
      const d1 = distance(p, i0 + 1, j, s1);
      const d2 = distance(p, i0 + 2, j, s2);
      const d3 = distance(p, i0 + 3, j, s3);
      sums[i0 * k + cj] += d0;
      sums[(i0 + 1) * k + cj] += d1;
      sums[(i0 + 2) * k + cj] += d2;
      sums[(i0 + 3) * k + cj] += d3;
      const row = j * k;
      sums[row + c0] += d0;
      sums[row + c1] += d1;
      sums[row + c2] += d2;
      sums[row + c3] += d3;
    }
    for (let a = i0; a < i0 + BLOCK; a++) {
      for (let b = a + 1; b < i0 + BLOCK; b++) {
        const dist = distance(p, a, b, dot(x, a * d, b * d, d));
        sums[a * k + ids[b]] += dist;
        sums[b * k + ids[a]] += dist;
      }
    }
  }
  for (let a = i0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const dist = distance(p, a, b, dot(x, a * d, b * d, d));
      sums[a * k + ids[b]] += dist;
      sums[b * k + ids[a]] += dist;
    }
  }
  return sums;
}

function silhouetteOfRow(row: Float64Array, offset: number, own: number, sizes: Float64Array, k: number): number {
  if (sizes[own] <= 1) return 0;
  const a = row[offset + own] / (sizes[own] - 1);
  let b = Infinity;
  for (let c = 0; c < k; c++) if (c !== own) b = Math.min(b, row[offset + c] / sizes[c]);
  const m = Math.max(a, b);
  return m > 0 ? (b - a) / m : 0;
}

/** s(i) for every item, exactly (O(N^2 D)). */
export function silhouetteSamples(
  x: Float32Array | Float64Array,
  labels: Labels,
  metric: SilhouetteMetric = "euclidean",
): Float64Array {
  const cp = clusteredPoints(x, labels);
  const { n, d, k, ids, sizes } = cp;
  const p = prepare(x, n, d, metric);
  const out = new Float64Array(n);
  if (n * k <= SYMMETRIC_LIMIT) {
    const sums = clusterDistanceSums(p, ids, k);
    for (let i = 0; i < n; i++) out[i] = silhouetteOfRow(sums, i * k, ids[i], sizes, k);
    return out;
  }
  // many clusters: one row of sums at a time, every pair computed from both ends
  const row = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    row.fill(0);
    for (let j = 0; j < n; j++) if (j !== i) row[ids[j]] += distance(p, i, j, dot(p.x, i * d, j * d, d));
    out[i] = silhouetteOfRow(row, 0, ids[i], sizes, k);
  }
  return out;
}

export function silhouette(
  x: Float32Array | Float64Array,
  labels: Labels,
  options: SilhouetteOptions = {},
): SilhouetteResult {
  const metric = options.metric ?? "euclidean";
  const maxExact = options.maxExact ?? 20_000;
  const n = labels.length;
  if (n <= maxExact && options.sampleSize === undefined) {
    const s = silhouetteSamples(x, labels, metric);
    return { score: mean(s), sampleSize: n, sampled: false };
  }
  const size = Math.min(options.sampleSize ?? maxExact, n);
  if (size === n) return { score: mean(silhouetteSamples(x, labels, metric)), sampleSize: n, sampled: false };
  const d = x.length / n;
  const idx = sampleWithoutReplacement(n, size, createRandom(options.seed ?? 0));
  const xs = new Float64Array(size * d);
  const ls = new Float64Array(size);
  idx.forEach((i, s) => {
    ls[s] = labels[i];
    for (let t = 0; t < d; t++) xs[s * d + t] = x[i * d + t];
  });
  return { score: mean(silhouetteSamples(xs, ls, metric)), sampleSize: size, sampled: true };
}

function mean(values: Float64Array): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}
