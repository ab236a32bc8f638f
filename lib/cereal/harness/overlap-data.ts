/**
 * The weak-surrogate world of issue #12: many overlapping Gaussian classes, where a surrogate
 * trained on a few hundred labels stays far from the truth and FixMatch can confirm its own
 * mistakes. Class means ~ N(0, spread^2 I) with unit-variance noise around them: spread ~1 makes
 * neighbouring classes overlap heavily. `imbalance` a > 0 draws class c with probability
 * proportional to (c + 1)^-a (Zipf) instead of uniformly. Two options make the classes other than
 * isotropic Gaussians with one variance (the family of models/gaussian-mixture.ts), each from its own
 * named stream, so that the rows without them stay as they were: `anisotropy` A scales class c's noise
 * in dimension j by exp(A (2u - 1)), u uniform; `warp` w maps every row x to x + w tanh(M x), M a
 * fixed d x d matrix of N(0, 1/d) entries, which bends each Gaussian into a curved shape; `modes` m > 1
 * makes each class a mixture of m Gaussians, centred at the class mean plus an N(0, spread^2 I) offset
 * each, a row's mode uniform among its class's; `tails` v scales each row's noise by sqrt(v / chi2_v), which
 * makes it a multivariate Student t with v degrees of freedom (heavy tails). Seeded; bench/overlap-bundle.ts writes it
 * as a bundle, bench/weak-set.ts the fixed weak test set of issue #23.
 */
import { Random } from "../../random/named-streams";

export interface OverlapOptions {
  readonly n: number;
  readonly d: number;
  readonly classes: number;
  readonly spread: number;
  readonly seed: number;
  /** Zipf exponent of the class sizes; 0 or absent: uniform classes */
  readonly imbalance?: number;
  /** per-class, per-dimension noise scales exp(A (2u - 1)); 0 or absent: unit noise */
  readonly anisotropy?: number;
  /** x -> x + warp * tanh(M x); 0 or absent: no warp */
  readonly warp?: number;
  /** Gaussian modes per class, each offset from the class mean by N(0, spread^2 I); 1 or absent: one */
  readonly modes?: number;
  /** Student t noise with this many degrees of freedom (a whole number); 0 or absent: Gaussian */
  readonly tails?: number;
}

/** per row, sqrt(v / chi2_v) from its own stream (v = 0: 1, Gaussian noise) */
function rowScales(n: number, v: number, seed: number): Float64Array {
  if (!Number.isInteger(v) || v < 0) throw new Error(`tails must be a whole number of degrees of freedom >= 1 (0: Gaussian), got ${v}`);
  if (v === 0) return new Float64Array(n).fill(1);
  const random = Random.from(seed, "tails");
  return Float64Array.from({ length: n }, () => {
    let chi2 = 0;
    for (let k = 0; k < v; k++) chi2 += random.normal() ** 2;
    return Math.sqrt(v / chi2);
  });
}

/** every row x -> x + w tanh(M x), M ~ N(0, 1/d) from its own stream */
function warpRows(embeddings: Float32Array, n: number, d: number, w: number, seed: number): void {
  const random = Random.from(seed, "warp");
  const m = Float64Array.from({ length: d * d }, () => random.normal() / Math.sqrt(d));
  const row = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) row[j] = embeddings[i * d + j];
    for (let j = 0; j < d; j++) {
      let z = 0;
      for (let f = 0; f < d; f++) z += m[j * d + f] * row[f];
      embeddings[i * d + j] = row[j] + w * Math.tanh(z);
    }
  }
}

/** m modes per class (class c's modes at rows c m .. c m + m - 1 of points), and a draw of a row's mode; m = 1: the class means themselves, no draw */
function modeCentres(means: Float32Array, classes: number, d: number, spread: number, m: number, seed: number): { points: Float32Array; ofRow: (label: number) => number } {
  if (!Number.isInteger(m) || m < 1) throw new Error(`modes must be a whole number >= 1, got ${m}`);
  if (m === 1) return { points: means, ofRow: (label) => label };
  const random = Random.from(seed, "modes");
  const points = Float32Array.from({ length: classes * m * d }, (_, at) => means[Math.floor(at / (m * d)) * d + (at % d)] + random.normal() * spread);
  return { points, ofRow: (label) => label * m + random.int(m) };
}

export function overlappingClasses(options: OverlapOptions): { embeddings: Float32Array; labels: Int32Array; means: Float32Array } {
  const { n, d, classes, spread } = options;
  const random = new Random(options.seed);
  const means = Float32Array.from({ length: classes * d }, () => random.normal() * spread);
  const a = options.imbalance ?? 0;
  const weights = Float64Array.from({ length: classes }, (_, c) => (c + 1) ** -a);
  const labels = Int32Array.from({ length: n }, () => (a > 0 ? random.categorical(weights, 0, classes) : random.int(classes)));
  const anisotropy = options.anisotropy ?? 0;
  const scaleRandom = Random.from(options.seed, "anisotropy");
  const scales = Float64Array.from({ length: classes * d }, () => (anisotropy > 0 ? Math.exp(anisotropy * (2 * scaleRandom.next() - 1)) : 1));
  const centres = modeCentres(means, classes, d, spread, options.modes ?? 1, options.seed);
  const tails = rowScales(n, options.tails ?? 0, options.seed);
  const embeddings = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const centre = centres.ofRow(labels[i]) * d;
    for (let j = 0; j < d; j++) embeddings[i * d + j] = centres.points[centre + j] + tails[i] * scales[labels[i] * d + j] * random.normal();
  }
  if (options.warp) warpRows(embeddings, n, d, options.warp, options.seed);
  return { embeddings, labels, means };
}
