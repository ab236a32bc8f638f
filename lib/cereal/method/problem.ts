/**
 * What a Cereal run works on: the embeddings the surrogate sees, the number of reference
 * classes, and the test clusterings whose metrics are estimated; and the state between rounds.
 */
import type { Draw } from "./designs";
import type { OutOfSampleRecord } from "./out-of-sample";
import type { EmbeddingMatrix, LabeledRows } from "./surrogate";

export interface TestClustering {
  readonly name: string;
  /** cluster id of every item, 0..k-1 */
  readonly assignments: Int32Array;
  readonly k: number;
  /** optional soft version f(c|x), N x k row-major (Soft NMI reads it) */
  readonly soft?: Float32Array;
}

export interface CerealProblem {
  readonly embeddings: EmbeddingMatrix;
  readonly numClasses: number;
  readonly clusterings: readonly TestClustering[];
}

export interface CerealState {
  readonly problem: CerealProblem;
  /** labels so far, in draw order */
  readonly labeled: LabeledRows;
  /** how every labeled row was drawn, aligned with labeled.rows */
  readonly draws: readonly Draw[];
  /** the round to run next: its estimate uses batches 0..round (0 = the seed batch), it acquires batch round + 1 */
  readonly round: number;
  /** earlier models' view of every batch (out-of-sample.ts); absent: none recorded (ppi then corrects with the labels alone) */
  readonly outOfSample?: OutOfSampleRecord;
  /** the previous round's trained surrogate weights (Surrogate.weights): a round with RoundOptions.warmSteps trains on from them */
  readonly warmStart?: Float32Array;
}

/** rows 0..n-1 not in `labeled`, increasing */
export function unlabeledRows(n: number, labeled: Int32Array): Int32Array {
  const taken = new Uint8Array(n);
  for (const r of labeled) taken[r] = 1;
  const out = new Int32Array(n - labeled.length);
  let j = 0;
  for (let r = 0; r < n; r++) if (!taken[r]) out[j++] = r;
  if (j !== out.length) throw new Error("labeled rows repeat or fall outside 0..n-1");
  return out;
}

/** The positions of `rows` in `pool` (increasing, every row in it), by binary search: no N-sized map of the pool. */
export function positionsIn(pool: Int32Array, rows: readonly number[]): number[] {
  return rows.map((row) => {
    let lo = 0;
    let hi = pool.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (pool[mid] === row) return mid;
      if (pool[mid] < row) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new Error(`row ${row} is not in the pool`);
  });
}

/** The state after the seed batch is labelled: round 0 runs next. */
export function initialState(problem: CerealProblem, seedDraws: readonly Draw[], labels: Int32Array): CerealState {
  const empty: CerealState = { problem, labeled: { rows: new Int32Array(0), labels: new Int32Array(0) }, draws: [], round: -1 };
  return addLabels(empty, seedDraws, labels);
}

/** The state after the oracle (or annotators) labelled a batch of draws. */
export function addLabels(state: CerealState, draws: readonly Draw[], labels: Int32Array): CerealState {
  if (draws.length !== labels.length) throw new Error(`${draws.length} draws but ${labels.length} labels`);
  const rows = new Int32Array(state.labeled.rows.length + draws.length);
  rows.set(state.labeled.rows);
  draws.forEach((d, i) => (rows[state.labeled.rows.length + i] = d.row));
  const all = new Int32Array(rows.length);
  all.set(state.labeled.labels);
  all.set(labels, state.labeled.labels.length);
  return { ...state, labeled: { rows, labels: all }, draws: [...state.draws, ...draws], round: state.round + 1 };
}
