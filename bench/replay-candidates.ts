/**
 * Candidate estimators measured offline with bench/estimator-replay.ts (`--module bench/replay-candidates.ts`), none of them
 * adopted as they are (lib/cereal/harness/MEASUREMENTS.md "Issue #23: the squared-error weights where pi reads calibrated, and
 * estimators replayed offline" and "Issue #23: an ensemble of fits, and the first-order ppi where the labels are plentiful").
 * "The default" below is the one they were measured against, `guarded` (the mean; from 2026-12-05 to 2026-12-06 the default
 * was `guarded-linear-plentiful`, the first-order branch that came out of `guarded-plentiful-linear-always`):
 * - `ppi-linear`: the soft table's metrics moved to first order by the prediction-powered cells (lib/cereal/method/ppi-linear.ts).
 * - `ppi-mid`: the same with g taken midway between the soft and the projected ppi tables (exact for a quadratic metric).
 * - `mean-linear`, `mean-mid`: half soft, half the above.
 * - `guarded-weak-linear`: the default, its weak branch `ppi-linear` instead of the jackknifed ppi; `guarded-weak-linear-1` only
 *   from one label per cell of the clustering's table on; `guarded-weak-linear-near` only while the first order moves the soft
 *   NMI by at most NEAR (0.1; past it, the soft table is too far from the truth for a first order: weak-c40 and weak-text).
 * - `guarded-mean-linear-late`: the default, the ppi side of its mean `ppi-linear` from one label per cell on.
 * - `guarded-over-soft`, `guarded-over-lean`: the default, but once the surrogate has read overconfident (and is neither weak
 *   nor diffuse) the soft side alone, or three quarters soft and a quarter the default's ppi side; from the bias of the two
 *   sides over the rounds from 500 labels on seeds 3000-3001, where soft was the nearer side on the overconfident bundles.
 * - `soft-while-linear-agrees` (`-1`): where neither weak nor diffuse, the soft table while `ppi-linear`'s NMI lies within 2 (1)
 *   of its jackknife standard errors of the soft NMI, else the default.
 * - `guarded-plentiful-linear-always`: the default, but `ppi-linear` wherever the labels are plentiful (5 per cell) and the
 *   surrogate is neither weak nor diffuse; gated by the gap to the soft NMI (2 standard errors) it is `guarded-linear-plentiful`.
 * - `guarded-ramp`: the default, but under one label per cell the ppi side's weight ramps from 0 to the mean's
 *   1/2 with the labels per cell (the demo's deficit to soft lies at 100-250 labels).
 * - `guarded-linear-from-1`, `-from-2`, `-from-1-z3`: `guarded-linear-plentiful`, its first-order branch taken from 1 (2) labels per cell
 *   on instead of 5, at the gap of 2 (3) standard errors (weak-c5 seeds 5072-5099: 0.71x -> 0.74x, 0.74x, 0.72x Random's).
 * - `guarded-diffuse-z3` (`-z2`): the default, but pi reads diffuse only where its under-confidence is also more than 3 (2) of its
 *   standard errors (HealthOptions.diffuseZ): the 5-point gap alone, read in every window and kept once read, flagged the
 *   generator's own calibrated posterior diffuse in most runs of the weak set (bench/bayes-bound.ts). `guarded-diffuse-spent`:
 *   the k-th window read must exceed z = Phi^-1(1 - 0.05 / k) standard errors (1.64 for the first, 2.24 the fifth, 2.81 the
 *   twentieth): the false readings' chance, which adds up over the windows since one reading flags pi for good, spent over them
 *   as they are read (Bonferroni over the windows so far), so that an early large gap (the kNN fake's) still reads at once.
 *   Measured beside them, `guarded-diffuse-gap` (a diffuse pi loses the soft table only where the soft-ppi gap shows,
 *   GuardOptions.diffuseNeedsGap) became the default on 2026-12-06; the default before is `guarded-diffuse-always`.
 */
import type { Estimator, EstimatorInput } from "@/lib/cereal/method/estimators";
import { guardedEstimator, guardedLinearPlentifulEstimator, guardedVariant, labelsArePlentiful } from "@/lib/cereal/method/estimators-guarded";
import { softTable } from "@/lib/cereal/method/estimators-soft";
import { ppiTable } from "@/lib/cereal/method/ppi";
import { ppiLinear, ppiLinearMetrics } from "@/lib/cereal/method/ppi-linear";
import type { TestClustering } from "@/lib/cereal/method/problem";
import { normalQuantile } from "@/lib/cereal/method/intervals";
import { guardReading } from "@/lib/cereal/method/surrogate-health";
import { asTable, denseTable, METRIC_KEYS, metricsFromTable, type MetricValues } from "@/lib/metrics";

const PPI = { pseudo: "soft", lambda: "tuned" } as const;
/** the chance of a false diffuse reading spent over the windows, guarded-diffuse-spent */
const DIFFUSE_ALPHA = 0.05;
/** the largest NMI move of the first order that guarded-weak-linear-near trusts */
const NEAR = 0.1;

const linear = (input: EstimatorInput, c: TestClustering) => ppiLinearMetrics(input, c);
const midway = (input: EstimatorInput, c: TestClustering) =>
  ppiLinearMetrics(input, c, (soft) => {
    const ppi = denseTable(ppiTable(input, c, PPI));
    return asTable(denseTable(soft).map((row, y) => row.map((v, j) => (v + ppi[y][j]) / 2)));
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

/** where neither weak nor diffuse: the soft table while ppi-linear's NMI is within Z of its standard errors of the soft NMI */
function softWhileLinearAgrees(z: number) {
  return (input: EstimatorInput, c: TestClustering): MetricValues => {
    const { health } = guardReading(input.labeled, input.draws, input.outOfSample);
    if (health.weak || health.diffuse) return guardedEstimator.metrics!(input, c);
    const { metrics, nmiSe } = ppiLinear(input, c);
    const soft = softMetrics(input, c);
    return nmiSe !== null && Math.abs(metrics.nmi - soft.nmi) <= z * nmiSe ? soft : guardedEstimator.metrics!(input, c);
  };
}

/** guarded-linear-plentiful, its first-order branch (the gap to the soft NMI over Z standard errors) taken from PER_CELL labels per cell on instead of 5 */
function gatedLinearFrom(perCell: number, z: number) {
  return (input: EstimatorInput, c: TestClustering): MetricValues => {
    const { health } = guardReading(input.labeled, input.draws, input.outOfSample);
    if (health.weak || health.diffuse || !labelsArePlentiful(input.labeled.rows.length, input.numClasses, c.k, perCell)) return guardedLinearPlentifulEstimator.metrics!(input, c);
    const { metrics, nmiSe } = ppiLinear(input, c);
    return nmiSe !== null && Math.abs(metrics.nmi - softMetrics(input, c).nmi) > z * nmiSe ? metrics : guardedLinearPlentifulEstimator.metrics!(input, c);
  };
}

export const estimators: Estimator[] = [
  candidate("guarded-linear-from-1", gatedLinearFrom(1, 2)),
  candidate("guarded-linear-from-2", gatedLinearFrom(2, 2)),
  candidate("guarded-linear-from-1-z3", gatedLinearFrom(1, 3)),
  candidate("soft-while-linear-agrees", softWhileLinearAgrees(2)),
  candidate("guarded-ramp", (input, c) => {
    const { health } = guardReading(input.labeled, input.draws, input.outOfSample);
    const perCell = input.labeled.rows.length / (input.numClasses * c.k);
    if (perCell >= 1 || health.weak || health.diffuse) return guardedEstimator.metrics!(input, c);
    const soft = softMetrics(input, c);
    const mean = guardedEstimator.metrics!(input, c);
    // the mean is (soft + ppi) / 2; ppi's weight ramps from 0 to 1/2 as the labels reach one per cell
    return Object.fromEntries(METRIC_KEYS.map((k) => [k, soft[k] + perCell * (mean[k] - soft[k])])) as MetricValues;
  }),
  candidate("guarded-plentiful-linear-always", (input, c) => {
    const { health } = guardReading(input.labeled, input.draws, input.outOfSample);
    const plentiful = labelsArePlentiful(input.labeled.rows.length, input.numClasses, c.k);
    return plentiful && !health.weak && !health.diffuse ? linear(input, c) : guardedEstimator.metrics!(input, c);
  }),
  candidate("soft-while-linear-agrees-1", softWhileLinearAgrees(1)),
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
  guardedVariant("guarded-diffuse-z3", { diffuseZ: () => 3 }),
  guardedVariant("guarded-diffuse-z2", { diffuseZ: () => 2 }),
  guardedVariant("guarded-diffuse-spent", { diffuseZ: (k) => normalQuantile(1 - DIFFUSE_ALPHA / k) }),
];
