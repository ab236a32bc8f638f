/**
 * A semi-supervised mixture of isotropic Gaussians sharing one variance, fitted by EM with the
 * labeled rows' classes held fixed: the generative surrogate (ESTIMATORS.md, "Choosing the
 * surrogate's family"). Its posteriors are the Bayes classifier's when the classes are such
 * Gaussians, as in bench/overlap-bundle.ts's first four weak bundles; on real embeddings the family is
 * wrong, and the simulator's chooser (lib/cereal/harness/selecting-surrogate.ts) keeps FixMatch there.
 */
import type { EmbeddingMatrix, FitReport, LabeledRows, Surrogate } from "@/lib/cereal/method/surrogate";

export interface MixtureOptions {
  /** EM stops after this many iterations (default 200) */
  readonly maxIterations?: number;
  /** ... or once no row's posterior moved more than this in one iteration (default 1e-4) */
  readonly tolerance?: number;
}

export interface MixtureParameters {
  /** C x D class means, row-major */
  readonly means: Float64Array;
  readonly variance: number;
  readonly priors: Float64Array;
}

/** the smallest prior a class keeps, so that a class no row leans to can still be predicted */
const MIN_PRIOR = 1e-6;

/** writes the posterior of row i under the parameters into out[0..C) */
function posteriorOf(x: Float32Array, d: number, i: number, p: MixtureParameters, meanNorms: Float64Array, out: Float64Array): void {
  const C = p.priors.length;
  let max = -Infinity;
  for (let c = 0; c < C; c++) {
    let dot = 0;
    for (let f = 0, a = i * d, b = c * d; f < d; f++) dot += x[a + f] * p.means[b + f];
    // ||x||^2 is the same for every class: it drops out of the softmax
    const logp = Math.log(p.priors[c]) - (meanNorms[c] - 2 * dot) / (2 * p.variance);
    out[c] = logp;
    if (logp > max) max = logp;
  }
  let sum = 0;
  for (let c = 0; c < C; c++) sum += out[c] = Math.exp(out[c] - max);
  for (let c = 0; c < C; c++) out[c] /= sum;
}

function normsOf(means: Float64Array, C: number, d: number): Float64Array {
  const norms = new Float64Array(C);
  for (let c = 0; c < C; c++) for (let f = 0; f < d; f++) norms[c] += means[c * d + f] ** 2;
  return norms;
}

/** the mean of the rows */
function grandMean(x: Float32Array, d: number, rows: Int32Array): Float64Array {
  const grand = new Float64Array(d);
  for (const row of rows) for (let f = 0; f < d; f++) grand[f] += x[row * d + f] / rows.length;
  return grand;
}

/** the M step: means, shared variance and priors from the responsibilities of the rows */
function maximize(x: Float32Array, d: number, rows: Int32Array, r: Float64Array, C: number): MixtureParameters {
  const means = new Float64Array(C * d);
  const mass = new Float64Array(C);
  for (let j = 0; j < rows.length; j++) {
    const a = rows[j] * d;
    for (let c = 0; c < C; c++) {
      const w = r[j * C + c];
      if (w === 0) continue;
      mass[c] += w;
      for (let f = 0, b = c * d; f < d; f++) means[b + f] += w * x[a + f];
    }
  }
  let total = 0;
  for (let c = 0; c < C; c++) total += mass[c];
  // a class without mass (no label, no row leaning to it) sits at the grand mean with a floor prior
  const grand = mass.some((m) => m === 0) ? grandMean(x, d, rows) : null;
  for (let c = 0; c < C; c++) for (let f = 0; f < d; f++) means[c * d + f] = mass[c] > 0 ? means[c * d + f] / mass[c] : grand![f];
  const priors = Float64Array.from(mass, (m) => Math.max(m / total, MIN_PRIOR));
  let squares = 0;
  for (let j = 0; j < rows.length; j++) {
    const a = rows[j] * d;
    for (let c = 0; c < C; c++) {
      const w = r[j * C + c];
      if (w === 0) continue;
      let dist = 0;
      for (let f = 0, b = c * d; f < d; f++) dist += (x[a + f] - means[b + f]) ** 2;
      squares += w * dist;
    }
  }
  return { means, variance: Math.max(squares / (total * d), 1e-12), priors };
}

/**
 * EM over `rows` (every row the mixture learns from), the labeled ones clamped to their class;
 * starts from the labeled rows' class means and pooled variance with equal priors. Returns the
 * parameters and the iterations run.
 */
export function fitIsotropicMixture(
  embeddings: EmbeddingMatrix,
  numClasses: number,
  labeled: LabeledRows,
  rows: Int32Array,
  options: MixtureOptions = {},
): { parameters: MixtureParameters; iterations: number } {
  const { data: x, d } = embeddings;
  const C = numClasses;
  const maxIterations = options.maxIterations ?? 200;
  const tolerance = options.tolerance ?? 1e-4;
  const classOf = new Map<number, number>();
  labeled.rows.forEach((row, j) => classOf.set(row, labeled.labels[j]));
  const r = new Float64Array(rows.length * C);
  rows.forEach((row, j) => {
    const c = classOf.get(row);
    if (c !== undefined) r[j * C + c] = 1;
  });
  let parameters = maximize(x, d, rows, r, C);
  parameters = { ...parameters, priors: new Float64Array(C).fill(1 / C) };
  const posterior = new Float64Array(C);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations++;
    const meanNorms = normsOf(parameters.means, C, d);
    let moved = 0;
    for (let j = 0; j < rows.length; j++) {
      if (classOf.has(rows[j])) continue;
      posteriorOf(x, d, rows[j], parameters, meanNorms, posterior);
      for (let c = 0; c < C; c++) {
        moved = Math.max(moved, Math.abs(posterior[c] - r[j * C + c]));
        r[j * C + c] = posterior[c];
      }
    }
    parameters = maximize(x, d, rows, r, C);
    if (moved < tolerance) break;
  }
  return { parameters, iterations };
}

/** pi(.|x) of each row under the parameters: [rows.length x C] */
export function mixturePosteriors(embeddings: EmbeddingMatrix, parameters: MixtureParameters, rows: Int32Array): Float32Array {
  const C = parameters.priors.length;
  const meanNorms = normsOf(parameters.means, C, embeddings.d);
  const out = new Float32Array(rows.length * C);
  const posterior = new Float64Array(C);
  for (let j = 0; j < rows.length; j++) {
    posteriorOf(embeddings.data, embeddings.d, rows[j], parameters, meanNorms, posterior);
    out.set(posterior, j * C);
  }
  return out;
}

/** The mixture as a Surrogate: fit runs EM on labeled + unlabeled rows (FixMatch's options do not apply); it has no dropout, so its MC passes are copies. */
export function createGaussianMixtureSurrogate(embeddings: EmbeddingMatrix, numClasses: number, options: MixtureOptions = {}): Surrogate {
  let parameters: MixtureParameters | null = null;
  let disposed = false;
  const fitted = (): MixtureParameters => {
    if (disposed) throw new Error("gaussian mixture surrogate: used after dispose()");
    if (!parameters) throw new Error("gaussian mixture surrogate: predict before fit()");
    return parameters;
  };
  return {
    async fit(labeled, unlabeled): Promise<FitReport> {
      const start = performance.now();
      const rows = new Int32Array(labeled.rows.length + unlabeled.length);
      rows.set(labeled.rows);
      rows.set(unlabeled, labeled.rows.length);
      const result = fitIsotropicMixture(embeddings, numClasses, labeled, rows, options);
      parameters = result.parameters;
      return { backend: "em", trainSeconds: (performance.now() - start) / 1000, steps: result.iterations, maskRate: null, finalLoss: null };
    },
    async predictProba(rows) {
      return mixturePosteriors(embeddings, fitted(), rows);
    },
    async predictProbaMc(rows, passes) {
      const one = mixturePosteriors(embeddings, fitted(), rows);
      const out = new Float32Array(passes * one.length);
      for (let p = 0; p < passes; p++) out.set(one, p * one.length);
      return out;
    },
    dispose() {
      disposed = true;
      parameters = null;
    },
  };
}

export const gaussianMixtureSurrogateFactory = async (embeddings: EmbeddingMatrix, numClasses: number): Promise<Surrogate> =>
  createGaussianMixtureSurrogate(embeddings, numClasses);
