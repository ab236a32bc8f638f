/**
 * The pairwise surrogate's contract (paper section 5.3, appendix B; L2C, Hsu et al. 2019): a
 * multiclass network trained only from "same class or not?" answers. Its K' outputs are cluster
 * ids with no fixed meaning; the estimate takes each item's argmax as its class, which is enough
 * because every metric is invariant to renaming classes. models/ implements it with TF.js.
 */
import type { EmbeddingMatrix, FitProgress } from "../method/surrogate";

/** Answered pairs, aligned arrays: rows a[i] and b[i] of the embedding matrix, same[i] = 1 or 0. */
export interface LabeledPairs {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly same: Uint8Array;
}

export interface PairwiseFitOptions {
  /** every random choice of one fit derives from this seed */
  readonly seed: number;
}

export interface PairwiseFitReport {
  readonly backend: string;
  readonly trainSeconds: number;
  readonly steps: number;
  /** mean MCL loss over the last steps, null when nothing was trained */
  readonly finalLoss: number | null;
}

export interface PairwiseSurrogate {
  /** the number of output cluster ids K' */
  readonly numOutputs: number;
  /** Re-initialises the weights (seeded) and trains on the answered pairs with the MCL loss. */
  fit(pairs: LabeledPairs, options: PairwiseFitOptions, onProgress?: (progress: FitProgress) => void): Promise<PairwiseFitReport>;
  /** p(k|x) for each row: [rows.length x numOutputs] */
  predictProba(rows: Int32Array): Promise<Float32Array>;
  /** frees backend memory; the surrogate is unusable after */
  dispose(): void;
}

/** Creates a fresh pairwise surrogate over one embedding matrix with numOutputs cluster ids. */
export type PairwiseSurrogateFactory = (embeddings: EmbeddingMatrix, numOutputs: number) => Promise<PairwiseSurrogate>;

/** K' by the paper's rule: twice the expected number of classes, or 50 when it is unknown. */
export function defaultNumOutputs(expectedClasses: number | null): number {
  return expectedClasses !== null && expectedClasses >= 1 ? 2 * expectedClasses : 50;
}

/** Predicted same-class probability of a pair from the two rows' p(.|x): P_ij = sum_k p_ik p_jk. */
export function sameProbability(proba: Float32Array, k: number, i: number, j: number): number {
  let s = 0;
  for (let c = 0; c < k; c++) s += proba[i * k + c] * proba[j * k + c];
  return s;
}
