/**
 * Silhouette coefficient (Rousseeuw 1987): for item i with a(i) the mean distance to the other
 * members of its cluster and b(i) the smallest mean distance to another cluster,
 *   s(i) = (b(i) - a(i)) / max(a(i), b(i)),  s(i) = 0 in a singleton cluster,
 * and the score is the mean of s(i), as sklearn.metrics.silhouette_score with metric 'euclidean'
 * or 'cosine' (euclidean by sklearn's |x|^2 + |y|^2 - 2 x.y, cosine as 1 - x.y / (|x| |y|)
 * clipped to [0, 2], zero vectors left unnormalized).
 *
 * Euclidean is O(N^2 D): up to maxExact items (default 20 000) the score is exact; above, it is
 * the exact score of a uniform sample of sampleSize items (default maxExact) drawn with `seed`,
 * as sklearn's sample_size/random_state, and the result reports the sample size. Cosine is
 * exact in O(N K D) (see cosineSilhouettes) and samples only when sampleSize is given.
 */
import type { Labels } from "./labels";
import { clusteredPoints } from "./points";
import { createRandom, sampleWithoutReplacement } from "@/lib/random";

export type SilhouetteMetric = "euclidean" | "cosine";

export interface SilhouetteOptions {
  readonly metric?: SilhouetteMetric;
  /** largest N scored exactly (default 20 000) */
  readonly maxExact?: number;
  /** items drawn when N > maxExact (default maxExact); given explicitly, always sample */
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
  /** squared norms of the original rows */
  readonly sq: Float64Array;
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
  return { n, d, x: out, sq };
}

function dot(x: Float64Array, a: number, b: number, d: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) s += x[a + t] * x[b + t];
  return s;
}

/**
 * Euclidean: sums[i * k + c] = sum of distances from i to the members of cluster c. Each pair is
 * computed once, four rows against two later rows at a time (6 loads feed 8 products).
 */
function euclideanDistanceSums(p: Prepared, ids: Int32Array, k: number): Float64Array {
  const { n, d, x, sq } = p;
  const sums = new Float64Array(n * k);
  const add = (a: number, b: number, dotAB: number) => {
    const dist = Math.sqrt(Math.max(sq[a] + sq[b] - 2 * dotAB, 0));
    sums[a * k + ids[b]] += dist;
    sums[b * k + ids[a]] += dist;
  };
  let i0 = 0;
  for (; i0 + BLOCK <= n; i0 += BLOCK) {
    const o0 = i0 * d;
    const o1 = o0 + d;
    const o2 = o1 + d;
    const o3 = o2 + d;
    let j = i0 + BLOCK;
    for (; j + 2 <= n; j += 2) {
      const oj = j * d;
      const ok = oj + d;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let b0 = 0;
      let b1 = 0;
      let b2 = 0;
      let b3 = 0;
      for (let t = 0; t < d; t++) {
        const v = x[oj + t];
        const w = x[ok + t];
        const y0 = x[o0 + t];
        const y1 = x[o1 + t];
        const y2 = x[o2 + t];
        const y3 = x[o3 + t];
        a0 += y0 * v;
        a1 += y1 * v;
        a2 += y2 * v;
        a3 += y3 * v;
        b0 += y0 * w;
        b1 += y1 * w;
        b2 += y2 * w;
        b3 += y3 * w;
      }
      add(i0, j, a0);
      add(i0 + 1, j, a1);
      add(i0 + 2, j, a2);
      add(i0 + 3, j, a3);
      add(i0, j + 1, b0);
      add(i0 + 1, j + 1, b1);
      add(i0 + 2, j + 1, b2);
      add(i0 + 3, j + 1, b3);
    }
    for (; j < n; j++) for (let a = i0; a < i0 + BLOCK; a++) add(a, j, dot(x, a * d, j * d, d));
    for (let a = i0; a < i0 + BLOCK; a++) for (let b = a + 1; b < i0 + BLOCK; b++) add(a, b, dot(x, a * d, b * d, d));
  }
  for (let a = i0; a < n; a++) for (let b = a + 1; b < n; b++) add(a, b, dot(x, a * d, b * d, d));
  return sums;
}

/**
 * Cosine: the distance 1 - u_i . u_j is linear in u_j (u the normalized rows), so
 *   sum_{j in c, j != i} d(i, j) = (n_c - [c = c_i]) - u_i . (U_c - [c = c_i] u_i),
 * with U_c the sum of cluster c's normalized rows: exact in O(N K D) instead of O(N^2 D), one row
 * of sums at a time. (sklearn clips each distance to [0, 2]; that only removes rounding of order
 * 1e-16.)
 */
function cosineSilhouettes(p: Prepared, ids: Int32Array, k: number, sizes: Float64Array): Float64Array {
  const { n, d, x } = p;
  const U = new Float64Array(k * d);
  for (let i = 0; i < n; i++) {
    const o = ids[i] * d;
    for (let t = 0; t < d; t++) U[o + t] += x[i * d + t];
  }
  const out = new Float64Array(n);
  const row = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const xi = i * d;
    const own = ids[i];
    for (let c = 0; c < k; c++) {
      const dotU = dot2(x, xi, U, c * d, d);
      row[c] = c === own ? sizes[c] - 1 - (dotU - dot(x, xi, xi, d)) : sizes[c] - dotU;
    }
    out[i] = silhouetteOfRow(row, 0, own, sizes, k);
  }
  return out;
}

function dot2(x: Float64Array, a: number, y: Float64Array, b: number, d: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) s += x[a + t] * y[b + t];
  return s;
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
  if (metric === "cosine") return cosineSilhouettes(p, ids, k, sizes);
  const out = new Float64Array(n);
  if (n * k <= SYMMETRIC_LIMIT) {
    const sums = euclideanDistanceSums(p, ids, k);
    for (let i = 0; i < n; i++) out[i] = silhouetteOfRow(sums, i * k, ids[i], sizes, k);
    return out;
  }
  // many clusters: one row of sums at a time, every pair computed from both ends
  const row = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    row.fill(0);
    for (let j = 0; j < n; j++) {
      if (j !== i) row[ids[j]] += Math.sqrt(Math.max(p.sq[i] + p.sq[j] - 2 * dot(p.x, i * d, j * d, d), 0));
    }
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
  // cosine is exact in O(N K D) at any N: it samples only when asked to
  const exactUpTo = metric === "cosine" ? Infinity : maxExact;
  if (n <= exactUpTo && options.sampleSize === undefined) {
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
