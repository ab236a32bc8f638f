/**
 * k-means (Lloyd 1982) with k-means++ seeding (Arthur & Vassilvitskii 2007) in scikit-learn's
 * greedy form (2 + floor(ln k) candidate centres per step, the one lowering the potential most
 * kept), several seeded restarts, the run of least inertia (sum of squared distances to the
 * nearest centre) returned. Lloyd stops when the squared centre shift falls below
 * tol * mean per-feature variance (sklearn's tolerance), then labels are recomputed once.
 */
import { createRandom, type RandomSource } from "@/lib/random";

export interface KMeansOptions {
  readonly k: number;
  readonly seed?: number;
  /** independent k-means++ starts (sklearn's n_init; default 10) */
  readonly restarts?: number;
  readonly maxIterations?: number;
  /** relative tolerance on the centre shift (default 1e-4) */
  readonly tolerance?: number;
}

export interface KMeansResult {
  /** cluster 0..k-1 per point */
  readonly labels: Int32Array;
  /** k x D row-major */
  readonly centroids: Float64Array;
  readonly inertia: number;
  /** Lloyd iterations of the returned run */
  readonly iterations: number;
}

/** Squared distance between row i of x and row c of centres. */
function squaredDistance(x: Float64Array, i: number, centres: Float64Array, c: number, d: number): number {
  let s = 0;
  const a = i * d;
  const b = c * d;
  for (let t = 0; t < d; t++) {
    const diff = x[a + t] - centres[b + t];
    s += diff * diff;
  }
  return s;
}

/** Greedy k-means++: each new centre is the best (lowest potential) of a few D^2-weighted candidates. */
export function kMeansPlusPlus(x: Float64Array, n: number, d: number, k: number, random: RandomSource): Float64Array {
  const centres = new Float64Array(k * d);
  const trials = 2 + Math.floor(Math.log(k));
  const first = random.int(n);
  centres.set(x.subarray(first * d, first * d + d), 0);
  const closest = new Float64Array(n);
  for (let i = 0; i < n; i++) closest[i] = squaredDistance(x, i, centres, 0, d);
  const candidate = new Float64Array(n);
  const bestCandidate = new Float64Array(n);
  for (let c = 1; c < k; c++) {
    let potential = 0;
    for (let i = 0; i < n; i++) potential += closest[i];
    let bestPotential = Infinity;
    let bestIndex = -1;
    for (let t = 0; t < trials; t++) {
      // draw index with probability closest[i] / potential (uniformly when every point is a centre)
      let index = n - 1;
      if (potential > 0) {
        let u = random.next() * potential;
        for (let i = 0; i < n; i++) {
          u -= closest[i];
          if (u < 0) {
            index = i;
            break;
          }
        }
      } else index = random.int(n);
      let p = 0;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) {
          const diff = x[i * d + j] - x[index * d + j];
          s += diff * diff;
        }
        candidate[i] = Math.min(closest[i], s);
        p += candidate[i];
      }
      if (p < bestPotential) {
        bestPotential = p;
        bestIndex = index;
        bestCandidate.set(candidate);
      }
    }
    centres.set(x.subarray(bestIndex * d, bestIndex * d + d), c * d);
    closest.set(bestCandidate);
  }
  return centres;
}

/** Nearest centre of every point; returns the inertia. */
function assign(x: Float64Array, n: number, d: number, centres: Float64Array, k: number, labels: Int32Array, distances: Float64Array): number {
  let inertia = 0;
  for (let i = 0; i < n; i++) {
    let best = Infinity;
    let arg = 0;
    for (let c = 0; c < k; c++) {
      const s = squaredDistance(x, i, centres, c, d);
      if (s < best) {
        best = s;
        arg = c;
      }
    }
    labels[i] = arg;
    distances[i] = best;
    inertia += best;
  }
  return inertia;
}

function lloyd(x: Float64Array, n: number, d: number, k: number, centres: Float64Array, maxIterations: number, tolerance: number): KMeansResult {
  const labels = new Int32Array(n);
  const distances = new Float64Array(n);
  const sums = new Float64Array(k * d);
  const counts = new Float64Array(k);
  let iterations = 0;
  for (; iterations < maxIterations; ) {
    assign(x, n, d, centres, k, labels, distances);
    iterations++;
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const c = labels[i];
      counts[c]++;
      for (let j = 0; j < d; j++) sums[c * d + j] += x[i * d + j];
    }
    // an empty cluster takes the point farthest from its centre (sklearn's relocation)
    for (let c = 0; c < k; c++) {
      if (counts[c] > 0) continue;
      let far = 0;
      for (let i = 1; i < n; i++) if (distances[i] > distances[far]) far = i;
      distances[far] = 0;
      const old = labels[far];
      counts[old]--;
      for (let j = 0; j < d; j++) sums[old * d + j] -= x[far * d + j];
      labels[far] = c;
      counts[c] = 1;
      for (let j = 0; j < d; j++) sums[c * d + j] = x[far * d + j];
    }
    let shift = 0;
    for (let c = 0; c < k; c++)
      for (let j = 0; j < d; j++) {
        const v = sums[c * d + j] / counts[c];
        const diff = v - centres[c * d + j];
        shift += diff * diff;
        centres[c * d + j] = v;
      }
    if (shift <= tolerance) break;
  }
  const inertia = assign(x, n, d, centres, k, labels, distances);
  return { labels, centroids: centres, inertia, iterations };
}

export function kMeans(points: Float32Array | Float64Array, n: number, d: number, options: KMeansOptions): KMeansResult {
  const { k } = options;
  if (points.length !== n * d || n < 1) throw new RangeError(`points of length ${points.length} are not an [${n}, ${d}] matrix`);
  if (!Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`k must be an integer in 1..${n} (got ${k})`);
  const restarts = options.restarts ?? 10;
  const maxIterations = options.maxIterations ?? 300;
  const x = Float64Array.from(points);
  // sklearn: tol is relative to the mean per-feature variance of the data
  let meanVariance = 0;
  for (let j = 0; j < d; j++) {
    let m = 0;
    let s = 0;
    for (let i = 0; i < n; i++) m += x[i * d + j];
    m /= n;
    for (let i = 0; i < n; i++) s += (x[i * d + j] - m) ** 2;
    meanVariance += s / n;
  }
  const tolerance = (options.tolerance ?? 1e-4) * (meanVariance / d);
  const random = createRandom(options.seed ?? 0);
  let best: KMeansResult | null = null;
  for (let r = 0; r < restarts; r++) {
    const run = lloyd(x, n, d, k, kMeansPlusPlus(x, n, d, k, random), maxIterations, tolerance);
    if (!best || run.inertia < best.inertia) best = run;
  }
  return best!;
}
