/**
 * Candidate estimators measured offline with bench/estimator-replay.ts (`--module bench/replay-candidates.ts`), none of them
 * adopted (lib/cereal/harness/MEASUREMENTS.md "Issue #23: the squared-error weights where pi reads calibrated, and estimators
 * replayed offline"):
 * - `ppi-linear`: the soft table's metrics moved to first order by the prediction-powered cells, soft + g . (ppi - soft), g
 *   the metric's one-item changes on the soft table (pool-noise.ts oneItemChanges; the cells' difference has zero column sums,
 *   so g's per-column constants drop out). Linear in the residuals, it has no plug-in or clipping bias of its own, only the
 *   second-order remainder of the soft table's distance to the truth.
 * - `ppi-mid`: the same with g taken midway between the soft and the projected ppi tables (exact for a quadratic metric).
 * - `mean-linear`, `mean-mid`: half soft, half the above.
 * - `guarded-weak-linear`: the default, its weak branch `ppi-linear` instead of the jackknifed ppi; `guarded-weak-linear-1` only
 *   from one label per cell of the clustering's table on; `guarded-weak-linear-near` only while the first order moves the soft
 *   NMI by at most NEAR (0.1; past it, the soft table is too far from the truth for a first order: weak-c40 and weak-text).
 * - `guarded-mean-linear-late`: the default, the ppi side of its mean `ppi-linear` from one label per cell on.
 * - `guarded-over-soft`, `guarded-over-lean`: the default, but once the surrogate has read overconfident (and is neither weak
 *   nor diffuse) the soft side alone, or three quarters soft and a quarter the default's ppi side; from the bias of the two
 *   sides over the rounds from 500 labels on seeds 3000-3001, where soft was the nearer side on the overconfident bundles.
 */
import type { Estimator, EstimatorInput } from "@/lib/cereal/method/estimators";
import { guardedEstimator } from "@/lib/cereal/method/estimators-guarded";
import { softTable } from "@/lib/cereal/method/estimators-soft";
import { oneItemChanges } from "@/lib/cereal/method/pool-noise";
import { ppiCells, ppiTable } from "@/lib/cereal/method/ppi";
import type { TestClustering } from "@/lib/cereal/method/problem";
import { guardReading } from "@/lib/cereal/method/surrogate-health";
import { asTable, denseTable, METRIC_KEYS, metricsFromTable, type ContingencyTable, type MetricValues } from "@/lib/metrics";

const PPI = { pseudo: "soft", lambda: "tuned" } as const;
/** the largest NMI move of the first order that guarded-weak-linear-near trusts */
const NEAR = 0.1;

/** soft + g . (ppi cells - soft cells), g read on `at` (the closed-form metrics; accuracy and AP stay the soft table's) */
function movedBy(input: EstimatorInput, c: TestClustering, at: (soft: number[][]) => ContingencyTable): MetricValues {
  const table = softTable(input, c);
  const soft = metricsFromTable(table);
  const dense = denseTable(table);
  const g = oneItemChanges(at(dense), 0);
  const cells = ppiCells(input, c, PPI);
  const out = { ...soft };
  for (const k of METRIC_KEYS) {
    const gk = g[k];
    if (!gk) continue;
    let d = 0;
    for (let y = 0; y < input.numClasses; y++) for (let j = 0; j < c.k; j++) d += gk[y * c.k + j] * (cells[y * c.k + j] - dense[y][j]);
    out[k] = soft[k] + d;
  }
  return out;
}

const linear = (input: EstimatorInput, c: TestClustering) => movedBy(input, c, (soft) => asTable(soft));
const midway = (input: EstimatorInput, c: TestClustering) =>
  movedBy(input, c, (soft) => {
    const ppi = denseTable(ppiTable(input, c, PPI));
    return asTable(soft.map((row, y) => row.map((v, j) => (v + ppi[y][j]) / 2)));
  });
const half = (a: MetricValues, b: MetricValues) => Object.fromEntries(METRIC_KEYS.map((k) => [k, (a[k] + b[k]) / 2])) as MetricValues;
const softMetrics = (input: EstimatorInput, c: TestClustering) => metricsFromTable(softTable(input, c));
const weak = (input: EstimatorInput) => guardReading(input.labeled, input.draws, input.outOfSample).health.weak;

/** read overconfident in some window, and neither weak nor diffuse now: the default's mean there */
function overconfidentOnly(input: EstimatorInput): boolean {
  const { health, overconfident } = guardReading(input.labeled, input.draws, input.outOfSample);
  return overconfident && !health.weak && !health.diffuse;
}

function candidate(name: string, metrics: (input: EstimatorInput, c: TestClustering) => MetricValues): Estimator {
  return { name, usesSurrogate: true, table: (input, c) => ppiTable(input, c, PPI), metrics };
}

export const estimators: Estimator[] = [
  candidate("ppi-linear", linear),
  candidate("ppi-mid", midway),
  candidate("mean-linear", (input, c) => half(softMetrics(input, c), linear(input, c))),
  candidate("mean-mid", (input, c) => half(softMetrics(input, c), midway(input, c))),
  candidate("guarded-weak-linear", (input, c) => (weak(input) ? linear(input, c) : guardedEstimator.metrics!(input, c))),
  candidate("guarded-weak-linear-1", (input, c) =>
    weak(input) && input.labeled.rows.length >= input.numClasses * c.k ? linear(input, c) : guardedEstimator.metrics!(input, c),
  ),
  candidate("guarded-weak-linear-near", (input, c) => {
    if (!weak(input)) return guardedEstimator.metrics!(input, c);
    const moved = linear(input, c);
    return Math.abs(moved.nmi - softMetrics(input, c).nmi) <= NEAR ? moved : guardedEstimator.metrics!(input, c);
  }),
  candidate("guarded-over-soft", (input, c) => (overconfidentOnly(input) ? softMetrics(input, c) : guardedEstimator.metrics!(input, c))),
  candidate("guarded-over-lean", (input, c) =>
    overconfidentOnly(input) ? half(softMetrics(input, c), guardedEstimator.metrics!(input, c)) : guardedEstimator.metrics!(input, c),
  ),
  candidate("guarded-mean-linear-late", (input, c) => {
    const { health } = guardReading(input.labeled, input.draws, input.outOfSample);
    if (input.labeled.rows.length < input.numClasses * c.k || health.weak || health.diffuse) return guardedEstimator.metrics!(input, c);
    return half(softMetrics(input, c), linear(input, c));
  }),
];
