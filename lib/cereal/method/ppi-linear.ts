/**
 * The soft table's metrics moved to first order by the prediction-powered cells (issue #23): soft + g . (ppi - soft), with g
 * each metric's one-item changes on the soft table (pool-noise.ts, closed forms: NMI, AMI, V-measure, ARI, FMI; accuracy and AP
 * stay the soft table's). The ppi cells' difference from the soft cells has zero column sums (both tables hold each cluster's
 * size), so g's per-column constants drop out. Linear in the residuals, it carries neither the plug-in bias of mutual
 * information on a sparse table nor the clipping of the projected ppi table, only the second-order remainder of the soft
 * table's distance to the truth: on weak-c5 (25 cells) it read Random's AEC of NMI at 0.62x where the projected ppi table read
 * 0.77x (MEASUREMENTS.md "Issue #23: an ensemble of fits, and the first-order ppi where the labels are plentiful").
 * Its standard error is the grouped jackknife's over the labeled rows (jackknife.ts' groups, by draw order).
 */
import { denseTable, METRIC_KEYS, metricsFromTable, type ContingencyTable, type MetricValues } from "@/lib/metrics";
import type { EstimatorInput } from "./estimators";
import { softTable } from "./estimators-soft";
import { groupLeftOut, JACKKNIFE_GROUPS, jackknifeSe } from "./jackknife";
import { oneItemChanges } from "./pool-noise";
import { ppiCells, type PpiOptions } from "./ppi";
import type { TestClustering } from "./problem";

const PPI: PpiOptions = { pseudo: "soft", lambda: "tuned" };

/** the soft table's metrics, its cells and each metric's one-item changes on `at` (default: on the soft table itself): what every first-order move starts from */
function firstOrderBase(input: EstimatorInput, clustering: TestClustering, at?: (soft: ContingencyTable) => ContingencyTable) {
  const table = softTable(input, clustering);
  // closed forms only (no cell budget for the evaluated metrics): accuracy and AP stay the soft table's
  return { soft: metricsFromTable(table), dense: denseTable(table), g: oneItemChanges(at ? at(table) : table, 0) };
}

/** soft + g . (cells - soft cells), per metric with a closed form */
function moved(base: ReturnType<typeof firstOrderBase>, cells: Float64Array, numClasses: number, k: number): MetricValues {
  const out = { ...base.soft };
  for (const key of METRIC_KEYS) {
    const gk = base.g[key];
    if (!gk) continue;
    let d = 0;
    for (let y = 0; y < numClasses; y++) for (let j = 0; j < k; j++) d += gk[y * k + j] * (cells[y * k + j] - base.dense[y][j]);
    out[key] = base.soft[key] + d;
  }
  return out;
}

/** the first-order metrics of one input (its multiplicities, where a bootstrap draw sets them, included); `at`: read the one-item changes on another table than the soft one (bench/replay-candidates.ts's ppi-mid) */
export function ppiLinearMetrics(input: EstimatorInput, clustering: TestClustering, at?: (soft: ContingencyTable) => ContingencyTable): MetricValues {
  return moved(firstOrderBase(input, clustering, at), ppiCells(input, clustering, PPI), input.numClasses, clustering.k);
}

/**
 * The first-order metrics and the grouped jackknife's standard error of their NMI (null under 2 labeled rows). The groups
 * leave labeled rows out of the ppi cells only: the soft table and its one-item changes stay the input's, since a group's
 * rows are a few dozen of the thousands of rows the soft table sums, and recomputing it per group would cost a pass over the
 * pool each time.
 */
export function ppiLinear(input: EstimatorInput, clustering: TestClustering, groups: number = JACKKNIFE_GROUPS): { metrics: MetricValues; nmiSe: number | null } {
  const base = firstOrderBase(input, clustering);
  const metrics = moved(base, ppiCells(input, clustering, PPI), input.numClasses, clustering.k);
  const m = input.labeled.rows.length;
  const G = Math.min(groups, m);
  if (G < 2) return { metrics, nmiSe: null };
  const leftOut: number[] = [];
  for (let group = 0; group < G; group++) {
    const multiplicity = groupLeftOut(m, G, group, input.multiplicity);
    leftOut.push(moved(base, ppiCells({ ...input, multiplicity }, clustering, PPI), input.numClasses, clustering.k).nmi);
  }
  return { metrics, nmiSe: jackknifeSe(leftOut) };
}
