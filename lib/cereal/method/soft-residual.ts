/**
 * The soft table's bias read in table space (issue #23). The soft table adds pi(.|x) of every
 * unlabeled row to its cluster's column, so its error in cell (y, c) is the pool's total residual
 * sum_{i in pool, c_i = c} ([y_i = y] - pi_i(y)). Every batch estimates that total out of sample
 * (its rows were predicted by the model that drew them, out-of-sample.ts), by Horvitz-Thompson:
 *   r_b(y, c) = sum_{i in batch b, c_i = c} (1/q_i) ([y_i = y] - pi_i(y)),
 * with the Hansen-Hurwitz variance v_b = n_b / (n_b - 1) (sum z_i^2 - r_b^2 / n_b), z_i the row's
 * term. Over the last `window` batches, r = mean_b r_b and v = sum_b v_b / B^2, and the reading is
 *   X = (1 / cells) sum_{cells with v > 0} r^2 / v,
 * about 1 when pi is calibrated cell by cell (each term ~ chi-square on 1 df) and larger when the
 * soft table is biased in cells the labels can see. Unlike the NMI gap between the soft and the ppi
 * tables, it does not carry the ppi table's noise in cells whose residuals are small: each cell's
 * residual is judged against its own standard error.
 *
 * What matters for the estimate is the residual's effect on NMI, not on every cell (a surrogate can
 * be off in cells whose errors leave NMI alone): the same residuals projected on NMI's gradient g,
 * taken at the window's Horvitz-Thompson pseudo table sum_b sum_i (1/q_i) pi_i (outer) c_i / B,
 *   shift = g . r  (the soft table's NMI error, true minus soft, to first order),
 * with its Hansen-Hurwitz standard error from the rows' scalar terms g . z_i, and z = shift / se.
 */
import { nmiFromTable } from "@/lib/metrics";
import type { Draw } from "./designs";
import type { OutOfSampleRecord } from "./out-of-sample";
import type { TestClustering } from "./problem";
import type { LabeledRows } from "./surrogate";
import { batchesByRound, inverseInclusionWeight } from "./weights";

export interface SoftResidualReading {
  /** the mean of r^2 / v over the cells with v > 0 */
  readonly reading: number;
  /** g . r: the soft table's NMI error (truth minus soft) read from the residuals, and its z-score */
  readonly nmiShift: number;
  readonly nmiZ: number;
  readonly cells: number;
  /** labeled rows with out-of-sample predictions in the window */
  readonly rows: number;
}

/** the reading over the last `window` probability batches with predictions; null before any */
export function softResidualReading(
  labeled: LabeledRows,
  draws: readonly Draw[],
  record: OutOfSampleRecord | undefined,
  clustering: TestClustering,
  numClasses: number,
  window = 3,
): SoftResidualReading | null {
  const K = clustering.k;
  const cells = numClasses * K;
  const batches: { sum: Float64Array; squares: Float64Array; pseudo: Float64Array; terms: Float64Array[]; n: number }[] = [];
  for (const { positions } of batchesByRound(draws)) {
    const rows = positions.filter((p) => record?.predictions.has(labeled.rows[p]));
    const weights = rows.map((p) => inverseInclusionWeight(draws[p]));
    if (rows.length < 2 || weights.some((w) => w === null)) continue;
    const sum = new Float64Array(cells);
    const squares = new Float64Array(cells);
    const pseudo = new Float64Array(cells);
    // each row's residual terms z_i (C values in its cluster's column), for the NMI projection
    const terms = rows.map((p, j) => {
      const pi = record!.predictions.get(labeled.rows[p])!.calibrated;
      const c = clustering.assignments[labeled.rows[p]];
      const z = new Float64Array(numClasses + 1);
      z[numClasses] = c;
      for (let y = 0; y < numClasses; y++) {
        z[y] = weights[j]! * ((labeled.labels[p] === y ? 1 : 0) - pi[y]);
        sum[y * K + c] += z[y];
        squares[y * K + c] += z[y] * z[y];
        pseudo[y * K + c] += weights[j]! * pi[y];
      }
      return z;
    });
    batches.push({ sum, squares, pseudo, terms, n: rows.length });
  }
  const recent = batches.slice(-window);
  if (recent.length === 0) return null;
  const B = recent.length;
  const pseudo = new Float64Array(cells);
  for (const b of recent) b.pseudo.forEach((v, j) => (pseudo[j] += v / B));
  const g = nmiGradient(pseudo, numClasses, K);
  let shift = 0;
  let shiftVariance = 0;
  for (const b of recent) {
    const s = b.terms.map((z) => {
      let dot = 0;
      for (let y = 0; y < numClasses; y++) dot += g[y * K + z[numClasses]] * z[y];
      return dot;
    });
    const total = s.reduce((a, v) => a + v, 0);
    shift += total / B;
    shiftVariance += ((b.n / (b.n - 1)) * (s.reduce((a, v) => a + v * v, 0) - (total * total) / b.n)) / (B * B);
  }
  let total = 0;
  let used = 0;
  for (let j = 0; j < cells; j++) {
    let r = 0;
    let v = 0;
    for (const b of recent) {
      r += b.sum[j] / B;
      // rows outside the cell contribute z = 0 to the Hansen-Hurwitz sum of squares around the mean
      v += ((b.n / (b.n - 1)) * (b.squares[j] - (b.sum[j] * b.sum[j]) / b.n)) / (B * B);
    }
    if (v > 0) {
      total += (r * r) / v;
      used++;
    }
  }
  return {
    reading: used > 0 ? total / used : 0,
    nmiShift: shift,
    nmiZ: shiftVariance > 0 ? shift / Math.sqrt(shiftVariance) : 0,
    cells: used,
    rows: recent.reduce((a, b) => a + b.n, 0),
  };
}

/** d NMI / d cell at a table of positive masses, by central differences (C x K row-major) */
function nmiGradient(cells: Float64Array, rows: number, cols: number): Float64Array {
  const matrix = (t: Float64Array) => Array.from({ length: rows }, (_, y) => Array.from(t.subarray(y * cols, (y + 1) * cols), (v) => Math.max(v, 0)));
  const total = cells.reduce((a, v) => a + Math.max(v, 0), 0);
  const h = 1e-4 * total;
  const g = new Float64Array(cells.length);
  const moved = Float64Array.from(cells);
  for (let j = 0; j < cells.length; j++) {
    moved[j] = cells[j] + h;
    const up = nmiFromTable(matrix(moved));
    moved[j] = Math.max(0, cells[j] - h);
    const down = nmiFromTable(matrix(moved));
    g[j] = (up - down) / (cells[j] + h - moved[j]);
    moved[j] = cells[j];
  }
  return g;
}
