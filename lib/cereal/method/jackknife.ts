/**
 * Small-sample bias correction of the metrics by the delete-a-group jackknife (Quenouille 1956;
 * grouped: Efron & Stein 1981). Mutual information, and with it NMI, AMI's MI and V-measure, is
 * biased upward when a table rests on few labels: an empty cell reads as "never happens", so the
 * plug-in table looks more structured than the population. Miller-Madow's first-order term,
 * (cells - rows - cols + 1) / 2n nats, is ~0.43 nats with 20 classes x 10 clusters at n = 200:
 * NMI +0.16 on the weak-surrogate bundle (ESTIMATORS.md). A bootstrap sees only part of it (its
 * draws are sparser than the sample, not the population: +0.05 there).
 *
 * The labeled rows are dealt into G groups by their position (draw order, so each batch spreads
 * over the groups); theta_g is the metric with group g left out (multiplicity 0: the estimators
 * rescale the rest within each batch, intervals.ts' convention), and
 *   theta_J = G theta - (G - 1) mean_g theta_g,
 * which removes any bias of the form b / n: theta_g's is b G / ((G - 1) n), so (G - 1)(mean theta_g
 * - theta) estimates b / n. Clipped to each metric's range (a correction can overshoot where the
 * bias is not of that form). It is for estimates that rest on the labels (the prediction-powered
 * table of a weak surrogate, estimators-guarded.ts); a table over all N items has no such bias.
 */
import { clampMetric, METRIC_KEYS, metricsFromTable, type ContingencyTable, type MetricValues } from "@/lib/metrics";
import type { EstimatorInput } from "./estimators";

/** groups G (fewer when there are fewer labeled rows) */
export const JACKKNIFE_GROUPS = 20;

/** multiplicities of m labeled rows with group g of G left out: row i is in group i mod G (draw order); `times`: the input's own multiplicities, kept for the rest */
export function groupLeftOut(m: number, G: number, g: number, times?: Int32Array): Int32Array {
  const multiplicity = new Int32Array(m);
  for (let i = 0; i < m; i++) multiplicity[i] = i % G === g ? 0 : (times ? times[i] : 1);
  return multiplicity;
}

/** the grouped jackknife's standard error from a statistic's values with each group left out: sqrt((G - 1) / G sum_g (theta_g - mean theta_g)^2) */
export function jackknifeSe(leftOut: readonly number[]): number {
  const G = leftOut.length;
  const mean = leftOut.reduce((a, v) => a + v, 0) / G;
  return Math.sqrt(((G - 1) / G) * leftOut.reduce((a, v) => a + (v - mean) ** 2, 0));
}

/** the grouped jackknife's bias-corrected value of a statistic, theta_J = G theta - (G - 1) mean theta_g, from its whole-sample value and its values with each group left out (unclamped) */
export function jackknifeCorrected(full: number, leftOut: readonly number[]): number {
  const G = leftOut.length;
  const mean = leftOut.reduce((a, v) => a + v, 0) / G;
  return G * full - (G - 1) * mean;
}

/** the metrics of the whole table and of the table with each group of labeled rows left out (none under 2 rows) */
function leaveGroupsOut(
  input: EstimatorInput,
  table: (input: EstimatorInput) => ContingencyTable,
  groups: number,
): { full: MetricValues; leftOut: MetricValues[] } {
  const full = metricsFromTable(table(input));
  const m = input.labeled.rows.length;
  const G = Math.min(groups, m);
  const leftOut: MetricValues[] = [];
  if (G < 2) return { full, leftOut };
  for (let g = 0; g < G; g++) leftOut.push(metricsFromTable(table({ ...input, multiplicity: groupLeftOut(m, G, g) })));
  return { full, leftOut };
}

/** the grouped jackknife of a table's metrics: the whole table's (`full`), the bias-corrected ones, and each metric's standard error (null under 2 labeled rows) */
export interface Jackknife {
  readonly full: MetricValues;
  readonly corrected: MetricValues;
  readonly se: MetricValues | null;
}

/**
 * theta_J per metric (above), and the standard error sqrt((G - 1) / G sum_g (theta_g - mean theta_g)^2)
 * (Efron & Stein 1981): how far a table's metric moves with its labels (the guard's overconfident branch
 * compares it with the soft-ppi gap, estimators-guarded.ts). Under 2 labeled rows: the table's metrics, no s.e.
 */
export function jackknife(
  input: EstimatorInput,
  table: (input: EstimatorInput) => ContingencyTable,
  groups: number = JACKKNIFE_GROUPS,
): Jackknife {
  const { full, leftOut } = leaveGroupsOut(input, table, groups);
  const G = leftOut.length;
  if (G < 2) return { full, corrected: full, se: null };
  const corrected = {} as MetricValues;
  const se = {} as MetricValues;
  for (const k of METRIC_KEYS) {
    const values = leftOut.map((v) => v[k]);
    corrected[k] = clampMetric(k, jackknifeCorrected(full[k], values));
    se[k] = jackknifeSe(values);
  }
  return { full, corrected, se };
}

/** the metrics with the jackknife's small-sample correction */
export function jackknifeMetrics(
  input: EstimatorInput,
  table: (input: EstimatorInput) => ContingencyTable,
  groups: number = JACKKNIFE_GROUPS,
): MetricValues {
  return jackknife(input, table, groups).corrected;
}
