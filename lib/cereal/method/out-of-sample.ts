/**
 * What the prediction-powered estimator (ppi.ts), the calibration (calibration.ts) and the
 * surrogate's health (surrogate-health.ts) need from earlier rounds: for every batch, the view of
 * the model that chose it. Round s - 1's model is fitted before batch s is drawn and labeled, so
 * its predictions for batch s are out of sample for free (no extra fits, unlike K-fold
 * cross-fitting, which costs K more trainings a round: 10x a FixMatch round's time at K = 5 if
 * every fold runs FixMatch). Each batch carries:
 *  - the pool it was drawn from and whether its design was a probability sample (weights.ts);
 *  - the pseudo tables of that model over the pool, sum_{i in U_{s-1}} pi_{s-1}(.|x_i) (outer)
 *    onehot(c_i) per clustering, soft and hard (argmax), C x K row-major;
 *  - the temperature the probabilities were scaled with.
 * and every labeled row keeps that model's raw and calibrated pi(.|x). The seed batch has no
 * earlier model: its predictions are absent and its pseudo tables zero (pi = 0), so its
 * correction is the plain Horvitz-Thompson count of its labels.
 */
import { pseudoLabel } from "./estimators";
import type { TestClustering } from "./problem";

export interface BatchEvidence {
  /** the round that drew the batch (Draw.round) */
  readonly round: number;
  readonly poolSize: number;
  readonly temperature: number;
  /** per clustering name: sum over the pool of calibrated pi (outer) onehot(cluster), C x K */
  readonly softPseudo: Readonly<Record<string, Float64Array>>;
  /** per clustering name: the same with onehot(argmax pi) */
  readonly hardPseudo: Readonly<Record<string, Float64Array>>;
  /** predictable variance terms of ppi.ts eq. (3): a = sum_pool (1/q - 1), b = sum_pool (1/q - 1) |pi|^2,
   * bMax = sum_pool (1/q - 1) max_y pi (the hard pseudo table's E<y, onehot(argmax)>) */
  readonly residual: { readonly a: number; readonly b: number; readonly bMax: number };
}

export interface RowPrediction {
  readonly raw: Float32Array;
  readonly calibrated: Float32Array;
}

export interface OutOfSampleRecord {
  /** by the round that drew the batch; the seed batch (round 0) has none */
  readonly batches: ReadonlyMap<number, BatchEvidence>;
  /** labeled (or about to be labeled) row -> the prediction of the model that chose it */
  readonly predictions: ReadonlyMap<number, RowPrediction>;
}

export const EMPTY_RECORD: OutOfSampleRecord = { batches: new Map(), predictions: new Map() };

/** sum_i p_i (outer) onehot(c_i) over the rows, C x K row-major */
export function pseudoTable(rows: Int32Array, proba: Float32Array, numClasses: number, clustering: TestClustering): Float64Array {
  const K = clustering.k;
  const out = new Float64Array(numClasses * K);
  for (let i = 0; i < rows.length; i++) {
    const c = clustering.assignments[rows[i]];
    for (let y = 0; y < numClasses; y++) out[y * K + c] += proba[i * numClasses + y];
  }
  return out;
}

/** count[y * K + c]: rows of the pool with hard pseudo-label y in cluster c (pseudoTable of one-hot pi, without the N x C one-hot matrix). */
function countTable(rows: Int32Array, labels: Int32Array, numClasses: number, clustering: TestClustering): Float64Array {
  const K = clustering.k;
  const out = new Float64Array(numClasses * K);
  for (let i = 0; i < rows.length; i++) out[labels[i] * K + clustering.assignments[rows[i]]] += 1;
  return out;
}

/** What one batch (a stage) adds to the record: its evidence and the drawing model's predictions of its rows. */
export interface StageEvidence {
  readonly batch: BatchEvidence;
  readonly predictions: ReadonlyMap<number, RowPrediction>;
}

/**
 * The evidence of a batch drawn from `pool` with the model whose calibrated pi is given: the
 * pseudo tables over that pool, the predictable variance terms and the drawn rows' predictions.
 * `pool` and the probabilities are aligned: [pool x C].
 */
export function batchEvidence(args: {
  readonly round: number;
  readonly pool: Int32Array;
  readonly rawProba: Float32Array;
  readonly calibratedProba: Float32Array;
  readonly temperature: number;
  readonly numClasses: number;
  readonly clusterings: readonly TestClustering[];
  /** positions in `pool` of the drawn rows */
  readonly drawnPositions: readonly number[];
  /** every pool row's inclusion probability; absent: uniform, n/|pool| */
  readonly q?: ArrayLike<number>;
}): StageEvidence {
  const C = args.numClasses;
  const hard = pseudoLabel(args.calibratedProba, C);
  const softPseudo: Record<string, Float64Array> = {};
  const hardPseudo: Record<string, Float64Array> = {};
  for (const c of args.clusterings) {
    softPseudo[c.name] = pseudoTable(args.pool, args.calibratedProba, C, c);
    hardPseudo[c.name] = countTable(args.pool, hard, C, c);
  }
  const residual = { a: 0, b: 0, bMax: 0 };
  const uniformQ = args.drawnPositions.length / Math.max(1, args.pool.length);
  for (let i = 0; i < args.pool.length; i++) {
    const q = args.q ? args.q[i] : uniformQ;
    if (!(q > 0)) continue;
    let norm = 0;
    let max = 0;
    for (let y = 0; y < C; y++) {
      norm += args.calibratedProba[i * C + y] ** 2;
      max = Math.max(max, args.calibratedProba[i * C + y]);
    }
    residual.a += 1 / q - 1;
    residual.b += (1 / q - 1) * norm;
    residual.bMax += (1 / q - 1) * max;
  }
  const predictions = new Map<number, RowPrediction>();
  for (const p of args.drawnPositions) {
    predictions.set(args.pool[p], {
      raw: args.rawProba.slice(p * C, (p + 1) * C),
      calibrated: args.calibratedProba.slice(p * C, (p + 1) * C),
    });
  }
  return { batch: { round: args.round, poolSize: args.pool.length, temperature: args.temperature, softPseudo, hardPseudo, residual }, predictions };
}

/** The record with one more batch's evidence (keyed by the batch's Draw.round). */
export function withEvidence(record: OutOfSampleRecord, stage: StageEvidence): OutOfSampleRecord {
  const batches = new Map(record.batches);
  batches.set(stage.batch.round, stage.batch);
  const predictions = new Map(record.predictions);
  for (const [row, p] of stage.predictions) predictions.set(row, p);
  return { batches, predictions };
}

/** The record after a round: it adds the batch the round drew (batchEvidence). */
export function extendRecord(record: OutOfSampleRecord, args: Parameters<typeof batchEvidence>[0]): OutOfSampleRecord {
  return withEvidence(record, batchEvidence(args));
}

/** The record as plain JSON (the server keeps it beside each round's results, so the next round can read it). */
export interface OutOfSampleJson {
  readonly batches: { round: number; poolSize: number; temperature: number; softPseudo: Record<string, number[]>; hardPseudo: Record<string, number[]>; residual: { a: number; b: number; bMax: number } }[];
  readonly predictions: { row: number; raw: number[]; calibrated: number[] }[];
}

const toArrays = (tables: Readonly<Record<string, Float64Array>>) => Object.fromEntries(Object.entries(tables).map(([k, v]) => [k, Array.from(v)]));
const fromArrays = (tables: Record<string, number[]>) => Object.fromEntries(Object.entries(tables).map(([k, v]) => [k, Float64Array.from(v)]));

export function recordToJson(record: OutOfSampleRecord): OutOfSampleJson {
  return {
    batches: [...record.batches.values()].map((b) => ({ ...b, softPseudo: toArrays(b.softPseudo), hardPseudo: toArrays(b.hardPseudo) })),
    predictions: [...record.predictions.entries()].map(([row, p]) => ({ row, raw: Array.from(p.raw), calibrated: Array.from(p.calibrated) })),
  };
}

export function recordFromJson(json: OutOfSampleJson): OutOfSampleRecord {
  return {
    batches: new Map(json.batches.map((b) => [b.round, { ...b, softPseudo: fromArrays(b.softPseudo), hardPseudo: fromArrays(b.hardPseudo) }])),
    predictions: new Map(json.predictions.map((p) => [p.row, { raw: Float32Array.from(p.raw), calibrated: Float32Array.from(p.calibrated) }])),
  };
}
