/**
 * The weak-surrogate world of issue #12: many overlapping Gaussian classes, where a surrogate
 * trained on a few hundred labels stays far from the truth and FixMatch can confirm its own
 * mistakes. Class means ~ N(0, spread^2 I) with unit-variance noise around them: spread ~1 makes
 * neighbouring classes overlap heavily. `imbalance` a > 0 draws class c with probability
 * proportional to (c + 1)^-a (Zipf) instead of uniformly. Seeded; bench/overlap-bundle.ts writes it
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
}

export function overlappingClasses(options: OverlapOptions): { embeddings: Float32Array; labels: Int32Array; means: Float32Array } {
  const { n, d, classes, spread } = options;
  const random = new Random(options.seed);
  const means = Float32Array.from({ length: classes * d }, () => random.normal() * spread);
  const a = options.imbalance ?? 0;
  const weights = Float64Array.from({ length: classes }, (_, c) => (c + 1) ** -a);
  const labels = Int32Array.from({ length: n }, () => (a > 0 ? random.categorical(weights, 0, classes) : random.int(classes)));
  const embeddings = new Float32Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) embeddings[i * d + j] = means[labels[i] * d + j] + random.normal();
  return { embeddings, labels, means };
}
