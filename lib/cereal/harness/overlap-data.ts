/**
 * The weak-surrogate world of issue #12: many overlapping Gaussian classes, where a surrogate
 * trained on a few hundred labels stays far from the truth and FixMatch can confirm its own
 * mistakes. Class means ~ N(0, spread^2 I) with unit-variance noise around them: spread ~1 makes
 * neighbouring classes overlap heavily. Seeded; bench/overlap-bundle.ts writes it as a bundle.
 */
import { Random } from "../../random/named-streams";

export interface OverlapOptions {
  readonly n: number;
  readonly d: number;
  readonly classes: number;
  readonly spread: number;
  readonly seed: number;
}

export function overlappingClasses(options: OverlapOptions): { embeddings: Float32Array; labels: Int32Array; means: Float32Array } {
  const { n, d, classes, spread } = options;
  const random = new Random(options.seed);
  const means = Float32Array.from({ length: classes * d }, () => random.normal() * spread);
  const labels = Int32Array.from({ length: n }, () => random.int(classes));
  const embeddings = new Float32Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) embeddings[i * d + j] = means[labels[i] * d + j] + random.normal();
  return { embeddings, labels, means };
}
