/**
 * The fixed weak test set of issue #23 (bench/weak-set.ts writes it; lib/cereal/method/ESTIMATORS.md records each bundle's hash):
 * per bundle, its generator's options (lib/cereal/harness/overlap-data.ts; N = 5,000 and seed 0 for all) and the k of its
 * k-means clustering. bench/bayes-bound.ts rebuilds the generators' posteriors from the same specs.
 */
export interface WeakSpec {
  readonly classes: number;
  readonly d: number;
  readonly spread: number;
  /** k-means clusters of the bundle's test clustering */
  readonly k: number;
  readonly imbalance?: number;
  readonly anisotropy?: number;
  readonly warp?: number;
  readonly modes?: number;
  readonly tails?: number;
}

/** N = 5,000 keeps a simulated round near digits' cost */
export const WEAK_N = 5000;
export const WEAK_SEED = 0;

export const WEAK_SET: Readonly<Record<string, WeakSpec>> = {
  "weak-c5": { classes: 5, d: 16, spread: 0.5, k: 5 },
  "weak-c40": { classes: 40, d: 64, spread: 0.4, k: 20 },
  "weak-imbalanced": { classes: 12, d: 32, spread: 0.45, k: 10, imbalance: 1.2 },
  "weak-text": { classes: 30, d: 128, spread: 0.25, k: 10 },
  "weak-aniso": { classes: 8, d: 24, spread: 0.5, k: 8, anisotropy: 0.6 },
  "weak-warp": { classes: 10, d: 32, spread: 0.55, k: 10, warp: 2 },
  "weak-modes": { classes: 6, d: 20, spread: 0.45, k: 8, modes: 3 },
  "weak-tails": { classes: 8, d: 24, spread: 0.6, k: 8, tails: 3 },
};

/** a spec as bench/overlap-bundle.ts's arguments (--classes 5 --d 16 ...) */
export function overlapBundleArgs(spec: WeakSpec): string[] {
  return Object.entries(spec).flatMap(([option, value]) => [`--${option}`, String(value)]);
}
