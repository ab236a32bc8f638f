/**
 * The surrogate classifier's contract (paper Algorithm 1, step 1-2). lib/cereal only knows this
 * interface; models/ implements it with TF.js, and tests use fakes.
 *
 * Rows are indices into the embedding matrix the surrogate was created with, so no embedding is
 * copied per call. Probabilities come back row-major: [rows.length x numClasses].
 */

/** The N x D float32 embedding matrix, row-major. */
export interface EmbeddingMatrix {
  readonly data: Float32Array;
  readonly n: number;
  readonly d: number;
}

export interface LabeledRows {
  /** indices into the embedding matrix */
  readonly rows: Int32Array;
  /** class ids 0..numClasses-1, aligned with rows */
  readonly labels: Int32Array;
}

export interface FitOptions {
  /** every random choice of one fit derives from this seed */
  readonly seed: number;
  /** semi-supervised FixMatch on labeled + unlabeled rows; false: supervised on labeled rows only */
  readonly fixmatch: boolean;
  /** FixMatch steps per round (default 512) */
  readonly steps?: number;
  /** FixMatch confidence threshold tau (default 0.95) */
  readonly threshold?: number;
  /** warm start: train from these weights (the previous round's, from `weights()`) instead of the seeded initialisation */
  readonly initialWeights?: Float32Array;
  /** each labeled row's batch inclusion probability q, aligned with the labeled rows (the round passes its draws'; a surrogate may ignore it) */
  readonly inclusion?: Float64Array;
}

export interface FitProgress {
  readonly step: number;
  readonly total: number;
}

export interface FitReport {
  /** the TF.js backend (or "fake") the fit ran on */
  readonly backend: string;
  readonly trainSeconds: number;
  readonly steps: number;
  /** FixMatch: share of unlabeled rows above the threshold over the last steps; null when supervised */
  readonly maskRate: number | null;
  readonly finalLoss: number | null;
  /** a surrogate that chooses among candidate families (the simulator's, harness/selecting-surrogate.ts): each one's evidence this round */
  readonly candidates?: readonly CandidateReport[];
}

/** one candidate family of a choosing surrogate, in one round */
export interface CandidateReport {
  readonly name: string;
  /** its previous model on the rows labeled since, by score (log-loss, cell bias); null where no rows were new */
  readonly batchScores: Readonly<Record<string, number | null>>;
  /** NMI of its soft table (the labeled rows with their labels, pi over the rest) per clustering, after this round's fit */
  readonly softNmi: Readonly<Record<string, number>>;
}

export interface Surrogate {
  /** Re-initialises the weights (seeded; options.initialWeights: those instead) and trains on the labeled rows (+ unlabeled for FixMatch). */
  fit(
    labeled: LabeledRows,
    unlabeled: Int32Array,
    options: FitOptions,
    onProgress?: (progress: FitProgress) => void,
  ): Promise<FitReport>;
  /** pi(.|x) for each row: [rows.length x numClasses] */
  predictProba(rows: Int32Array): Promise<Float32Array>;
  /** MC dropout: [passes x rows.length x numClasses], dropout active */
  predictProbaMc(rows: Int32Array, passes: number, seed: number): Promise<Float32Array>;
  /** the trained weights, flat, to warm-start the next round's fit; surrogates without trainable weights (fakes) leave it out */
  weights?(): Float32Array;
  /** frees backend memory; the surrogate is unusable after */
  dispose(): void;
}

/** Creates a fresh surrogate over one embedding matrix for numClasses reference classes. */
export type SurrogateFactory = (embeddings: EmbeddingMatrix, numClasses: number) => Promise<Surrogate>;
