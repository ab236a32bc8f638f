/**
 * The pool's own noise: how far the true metrics of a clustering may lie from the soft table's even when pi is exactly
 * calibrated. The truth is the table of the items' actual classes; given a calibrated pi, each unlabeled item's class
 * is a categorical draw from pi(.|x), independent of the others, so the true table scatters around the soft table by
 * the sum of those draws. By the delta method, with g_k(y, c) the change of metric k when one item of cluster c is
 * counted in class y,
 *
 *   Var_k = sum over unlabeled items i (cluster c_i) of  sum_y pi(y|x_i) g_k(y, c_i)^2 - (sum_y pi(y|x_i) g_k(y, c_i))^2.
 *
 * Why it is needed (issue #23): the prediction-powered table's spread is read from the residuals of the drawn items,
 * and where a design draws the items pi is unsure of (the residual score) the pool left behind is one pi reads almost
 * exactly; the drawn residuals then all but vanish, the ppi draws and their jackknife with them, and an interval 0.0003
 * wide missed the one or two items the pool still gets wrong (MEASUREMENTS.md "Issue #23: the residual score where pi
 * reads calibrated"). The pool noise is what such an interval cannot go below: an item pi gives 99.9% still lands in
 * another class once in a thousand. It is a floor, not a spread of its own: with pi overconfident it understates (and
 * the jackknife's standard error rules), with pi diffuse it overstates.
 *
 * g in closed form, O(1) a cell, for the metrics that are functions of a few sums over the table (NMI and V-measure:
 * sum n log n over cells, rows and columns; ARI and FMI: sum n^2 over the same), and for AMI, whose expected mutual
 * information one more item changes in one row's and one column's pair terms (movedExpectedMutualInfo): these are read at
 * any table size. Accuracy (its matching) and AP (its row maxima) take one metric evaluation a cell, O(cells^2) in all,
 * and are read only up to POOL_NOISE_EVALUATED_MAX_CELLS cells (bench/pool-noise.ts).
 */
import {
  apMetric,
  cellExpectedMutualInfo,
  clusteringAccuracyFromTable,
  denseTable,
  expectedMutualInfo,
  roundMarginals,
  type ContingencyTable,
  type MetricKey,
  type MetricValues,
} from "@/lib/metrics";
import type { EstimatorInput } from "./estimators";
import type { TestClustering } from "./problem";

/** the metrics that are functions of the table's sums alone (closedFormMetrics) */
const SUM_METRICS = ["nmi", "vMeasure", "ari", "fmi"] as const;
/** the metrics whose one-item changes come in closed form (closedFormChanges): read at any table size */
export const CLOSED_FORM_METRICS = [...SUM_METRICS, "ami"] as const;
/** the metrics whose one-item changes take a metric evaluation per cell (evaluatedChanges) */
export const EVALUATED_METRICS = ["acc", "ap"] as const;
type Changes = Partial<Record<MetricKey, Float64Array>>;

/**
 * Cells of a table (classes x clusters) up to which the evaluated metrics' pool noise is read: one evaluation of each per
 * cell, about 0.2 s a clustering and round at 40 x 20 with N = 10,000 (bench/pool-noise.ts); larger tables read the
 * closed-form metrics' alone, and the interval's floor of the other two is the jackknife's.
 */
export const POOL_NOISE_EVALUATED_MAX_CELLS = 1000;

const xlogx = (x: number) => (x > 0 ? x * Math.log(x) : 0);

/** the sums NMI, V-measure, ARI and FMI are functions of (x log x and x^2 over cells, rows and columns; the total; rows and columns present) */
interface TableSums {
  cellLog: number;
  rowLog: number;
  colLog: number;
  cellSq: number;
  rowSq: number;
  colSq: number;
  total: number;
  rowsPresent: number;
  colsPresent: number;
}

/** entropy of a marginal from its sum of x log x, as entropyOfCounts: 1 with nothing present, 0 with one label */
function entropyOf(sumLog: number, total: number, present: number): number {
  if (present === 0) return 1;
  if (present === 1) return 0;
  return Math.log(total) - sumLog / total;
}

/** mutual information and the two entropies from the sums, as mutualInfoFromTable and entropyOfCounts */
interface Information {
  readonly mi: number;
  readonly hTrue: number;
  readonly hPred: number;
}

function informationOf(s: TableSums): Information {
  const mi = s.rowsPresent <= 1 || s.colsPresent <= 1 ? 0 : Math.max(0, (s.cellLog - s.rowLog - s.colLog) / s.total + Math.log(s.total));
  return { mi, hTrue: entropyOf(s.rowLog, s.total, s.rowsPresent), hPred: entropyOf(s.colLog, s.total, s.colsPresent) };
}

/** NMI (arithmetic mean), V-measure, ARI and FMI from the sums, with the limit cases of lib/metrics (the pair diagonal the hard table's) */
function closedFormMetrics(s: TableSums): Record<(typeof SUM_METRICS)[number], number> {
  const { mi, hTrue, hPred } = informationOf(s);
  const single = (s.rowsPresent === 1 && s.colsPresent === 1) || (s.rowsPresent === 0 && s.colsPresent === 0);
  const nmi = single ? 1 : mi === 0 ? 0 : mi / Math.max((hTrue + hPred) / 2, Number.EPSILON);
  const homogeneity = hTrue ? mi / hTrue : 1;
  const completeness = hPred ? mi / hPred : 1;
  const vMeasure = s.total === 0 ? 1 : homogeneity + completeness === 0 ? 0 : (2 * homogeneity * completeness) / (homogeneity + completeness);
  const tpRaw = s.cellSq - s.total;
  const tp = Math.max(tpRaw, 0);
  const fp = Math.max(s.colSq - s.total - tpRaw, 0);
  const fn = Math.max(s.rowSq - s.total - tpRaw, 0);
  const tn = Math.max(s.total * s.total - s.total - tp - fp - fn, 0);
  const ari = fn === 0 && fp === 0 ? 1 : (2 * (tp * tn - fn * fp)) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
  const fmi = tp === 0 ? 0 : Math.sqrt(tp / (tp + fp)) * Math.sqrt(tp / (tp + fn));
  return { nmi, vMeasure, ari, fmi };
}

/** AMI (arithmetic mean) from the information, the expected mutual information and the labels present, with amiFromTable's limit cases */
function amiOf(info: Information, emi: number, rowsPresent: number, colsPresent: number): number {
  if ((rowsPresent === 1 && colsPresent === 1) || (rowsPresent === 0 && colsPresent === 0)) return 1;
  const normalizer = (info.hTrue + info.hPred) / 2;
  const denominator = normalizer - emi;
  const tol = 1e-10 * Math.max(1, normalizer);
  if (Math.abs(denominator) <= tol) return Math.abs(info.mi - info.hTrue) <= tol && Math.abs(info.mi - info.hPred) <= tol ? 1 : 0;
  return (info.mi - emi) / (denominator < 0 ? Math.min(denominator, -Number.EPSILON) : Math.max(denominator, Number.EPSILON));
}

/** a row-column pair's term of the expected mutual information (0 for an empty marginal, which it leaves out) */
const pairTerm = (a: number, b: number, N: number) => (a === 0 || b === 0 ? 0 : cellExpectedMutualInfo(a, b, N));

/**
 * The expected mutual information once one item is added to cell (y, c), for every cell, in O(cells) pair terms instead of
 * O(cells^2): it sums a pair term t(a_i, b_j) over the (rounded, amiFromTable) marginals at N + 1, and the move raises a_y and
 * b_c by one, so E'(y, c) = F + R_y + S_c + T_yc, with F the sum of t(a_i, b_j), R_y row y's change sum_j t(a_y + 1, b_j) -
 * t(a_y, b_j), S_c column c's likewise, and T_yc the cell's own cross term.
 */
function movedExpectedMutualInfo(ra: Float64Array, rb: Float64Array, N: number): Float64Array {
  const C = ra.length;
  const K = rb.length;
  const t0 = new Float64Array(C * K);
  const tRow = new Float64Array(C * K);
  const tCol = new Float64Array(C * K);
  const tBoth = new Float64Array(C * K);
  const rowChange = new Float64Array(C);
  const colChange = new Float64Array(K);
  let whole = 0;
  for (let y = 0; y < C; y++)
    for (let c = 0; c < K; c++) {
      const i = y * K + c;
      t0[i] = pairTerm(ra[y], rb[c], N + 1);
      tRow[i] = pairTerm(ra[y] + 1, rb[c], N + 1);
      tCol[i] = pairTerm(ra[y], rb[c] + 1, N + 1);
      tBoth[i] = pairTerm(ra[y] + 1, rb[c] + 1, N + 1);
      whole += t0[i];
      rowChange[y] += tRow[i] - t0[i];
      colChange[c] += tCol[i] - t0[i];
    }
  const moved = new Float64Array(C * K);
  for (let y = 0; y < C; y++)
    for (let c = 0; c < K; c++) {
      const i = y * K + c;
      moved[i] = whole + rowChange[y] + colChange[c] + tBoth[i] - tRow[i] - tCol[i] + t0[i];
    }
  return moved;
}

/** the closed-form metrics' one-item changes: each cell's move changes one cell, one row, one column and the total of the sums */
function closedFormChanges(table: ContingencyTable, dense: number[][]): Changes {
  const C = table.rows;
  const K = table.cols;
  const { rowSums: rows, colSums: cols } = table;
  const s: TableSums = { cellLog: 0, rowLog: 0, colLog: 0, cellSq: 0, rowSq: 0, colSq: 0, total: table.total, rowsPresent: 0, colsPresent: 0 };
  for (let i = 0; i < table.cellValue.length; i++) {
    const v = table.cellValue[i];
    s.cellLog += xlogx(v);
    s.cellSq += v * v;
  }
  for (let y = 0; y < C; y++) {
    s.rowLog += xlogx(rows[y]);
    s.rowSq += rows[y] * rows[y];
    if (rows[y] > 0) s.rowsPresent++;
  }
  for (let c = 0; c < K; c++) {
    s.colLog += xlogx(cols[c]);
    s.colSq += cols[c] * cols[c];
    if (cols[c] > 0) s.colsPresent++;
  }
  const base = closedFormMetrics(s);
  const total = Math.round(s.total);
  const ra = roundMarginals(rows, total);
  const rb = roundMarginals(cols, total);
  const baseAmi = amiOf(informationOf(s), expectedMutualInfo(ra, rb), s.rowsPresent, s.colsPresent);
  const emi = movedExpectedMutualInfo(ra, rb, total);
  const g: Changes = Object.fromEntries(CLOSED_FORM_METRICS.map((k) => [k, new Float64Array(C * K)]));
  for (let y = 0; y < C; y++)
    for (let c = 0; c < K; c++) {
      const v = dense[y][c];
      const a = rows[y];
      const b = cols[c];
      const sums: TableSums = {
        cellLog: s.cellLog - xlogx(v) + xlogx(v + 1),
        rowLog: s.rowLog - xlogx(a) + xlogx(a + 1),
        colLog: s.colLog - xlogx(b) + xlogx(b + 1),
        cellSq: s.cellSq + 2 * v + 1,
        rowSq: s.rowSq + 2 * a + 1,
        colSq: s.colSq + 2 * b + 1,
        total: s.total + 1,
        rowsPresent: s.rowsPresent + (a > 0 ? 0 : 1),
        colsPresent: s.colsPresent + (b > 0 ? 0 : 1),
      };
      const moved = closedFormMetrics(sums);
      for (const k of SUM_METRICS) g[k]![y * K + c] = moved[k] - base[k];
      g.ami![y * K + c] = amiOf(informationOf(sums), emi[y * K + c], sums.rowsPresent, sums.colsPresent) - baseAmi;
    }
  return g;
}

const EVALUATE: Record<(typeof EVALUATED_METRICS)[number], (table: number[][]) => number> = {
  acc: clusteringAccuracyFromTable,
  ap: (table) => apMetric(table).ap,
};

/** the other metrics' one-item changes by finite differences: one evaluation of each per cell */
function evaluatedChanges(dense: number[][], C: number, K: number): Changes {
  const g: Changes = {};
  for (const k of EVALUATED_METRICS) {
    const evaluate = EVALUATE[k];
    const base = evaluate(dense);
    const gk = (g[k] = new Float64Array(C * K));
    for (let y = 0; y < C; y++)
      for (let c = 0; c < K; c++) {
        dense[y][c] += 1;
        gk[y * K + c] = evaluate(dense) - base;
        dense[y][c] -= 1;
      }
  }
  return g;
}

/**
 * g[k][y * K + c]: metric k's change when one more item of cluster c is counted in class y, on a table of counts
 * (rows classes, columns clusters) read as such (the table's pair diagonal is the hard table's, as the truth's is);
 * the evaluated metrics only up to `maxCells` cells
 */
export function oneItemChanges(table: ContingencyTable, maxCells: number = POOL_NOISE_EVALUATED_MAX_CELLS): Changes {
  const dense = denseTable(table);
  return { ...closedFormChanges(table, dense), ...(table.rows * table.cols <= maxCells ? evaluatedChanges(dense, table.rows, table.cols) : {}) };
}

/**
 * per metric, the standard error of the true metrics around `table` (the soft table of `input`) from the unlabeled items'
 * classes drawn from pi; the evaluated metrics (accuracy, AP) are left out of tables over `maxCells` cells
 */
export function poolNoiseSe(input: EstimatorInput, clustering: TestClustering, table: ContingencyTable, maxCells: number = POOL_NOISE_EVALUATED_MAX_CELLS): Partial<MetricValues> {
  const proba = input.proba;
  if (!proba) throw new Error("poolNoiseSe: no surrogate probabilities for the unlabeled rows");
  const C = input.numClasses;
  const K = table.cols;
  if (table.rows !== C) throw new RangeError(`poolNoiseSe: the table has ${table.rows} class rows for ${C} classes`);
  const g = oneItemChanges(table, maxCells);
  const se: Partial<MetricValues> = {};
  for (const [k, gk] of Object.entries(g) as [MetricKey, Float64Array][]) {
    let variance = 0;
    for (let i = 0; i < input.unlabeled.length; i++) {
      const c = clustering.assignments[input.unlabeled[i]];
      let mean = 0;
      let square = 0;
      for (let y = 0, o = i * C; y < C; y++) {
        const d = gk[y * K + c];
        mean += proba[o + y] * d;
        square += proba[o + y] * d * d;
      }
      variance += Math.max(0, square - mean * mean);
    }
    se[k] = Math.sqrt(variance);
  }
  return se;
}
