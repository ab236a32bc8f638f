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
 */
import { denseTable, METRIC_KEYS, metricsFromTable, type ContingencyTable, type MetricValues } from "@/lib/metrics";
import type { EstimatorInput } from "./estimators";
import type { TestClustering } from "./problem";

/**
 * g[k][y * K + c]: metric k's change when one more item of cluster c is counted in class y, on a table of counts
 * (rows classes, columns clusters) read as such (the table's pair diagonal is the hard table's, as the truth's is)
 */
function oneItemChanges(table: ContingencyTable): Record<string, Float64Array> {
  const dense = denseTable(table);
  const C = table.rows;
  const K = table.cols;
  const base = metricsFromTable(dense);
  const g = Object.fromEntries(METRIC_KEYS.map((k) => [k, new Float64Array(C * K)]));
  for (let y = 0; y < C; y++)
    for (let c = 0; c < K; c++) {
      dense[y][c] += 1;
      const moved = metricsFromTable(dense);
      dense[y][c] -= 1;
      for (const k of METRIC_KEYS) g[k][y * K + c] = moved[k] - base[k];
    }
  return g;
}

/** per metric, the standard error of the true metrics around `table` (the soft table of `input`) from the unlabeled items' classes drawn from pi */
export function poolNoiseSe(input: EstimatorInput, clustering: TestClustering, table: ContingencyTable): MetricValues {
  const proba = input.proba;
  if (!proba) throw new Error("poolNoiseSe: no surrogate probabilities for the unlabeled rows");
  const C = input.numClasses;
  const K = table.cols;
  if (table.rows !== C) throw new RangeError(`poolNoiseSe: the table has ${table.rows} class rows for ${C} classes`);
  const g = oneItemChanges(table);
  const se = {} as MetricValues;
  for (const k of METRIC_KEYS) {
    const gk = g[k];
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
