/**
 * Candidate estimators for bench/estimator-replay.ts (`--module bench/soft-fitted.ts`): the current model's soft table with
 * its pi re-shaped so the table matches the prediction-powered cells. pi'(y|x) proportional to pi(y|x)^(1/T) exp(b_y): one
 * temperature T (and, in the -prior forms, one shift b_y per class) fitted so that the soft table of pi' on the unlabeled rows
 * plus the labels' counts comes nearest, in weighted least squares over the cells, to the ppi table's cells (ppi.ts ppiCells,
 * unbiased for the population table whatever the surrogate). The ppi cells are noisy one by one, but 1 (or C + 1) parameters
 * fitted on C x K cells average that noise away, so the table keeps the soft table's small variance while its temperature and
 * class totals come from an unbiased source instead of from the model's own confidence, which the older models' temperature
 * (calibration.ts) over-softens.
 * - `soft-fitted`: T only; `soft-fitted-prior`: T and the class shifts (each class's unlabeled total matched to the ppi row's);
 *   `soft-prior`: the class shifts only (T = 1).
 * - `guarded-fitted`, `guarded-fitted-prior`, `guarded-prior`: the default, its soft side (in the mean, wherever the surrogate reads neither
 *   weak nor diffuse) replaced by the fitted table's metrics.
 * None adopted: replayed on fresh seeds 6240-6247 of digits, the demo and the weak set (lib/cereal/harness/MEASUREMENTS.md "Issue #23:
 * the soft table fitted to the ppi cells"), the fitted soft table moved the soft one towards the truth where it reads far off
 * (weak-c5, -modes, -tails) and away from it where it reads well (digits, the demo, weak-warp), and the default with it as its soft
 * side lost on seven of the nine bundles and tied on weak-c40 and weak-text, where the surrogate reads weak and the default reports ppi.
 *   node --import tsx bench/estimator-replay.ts --bundles DIRS --estimators soft,ppi,soft-fitted,soft-fitted-prior,guarded-fitted,guarded-fitted-prior --module bench/soft-fitted.ts RUN.json ...
 */
import type { Estimator, EstimatorInput } from "@/lib/cereal/method/estimators";
import { guardedEstimator } from "@/lib/cereal/method/estimators-guarded";
import { goldenSectionMinimum } from "@/lib/cereal/method/golden-section";
import { softTable } from "@/lib/cereal/method/estimators-soft";
import { ppiCells, ppiTable } from "@/lib/cereal/method/ppi";
import type { TestClustering } from "@/lib/cereal/method/problem";
import { guardReading } from "@/lib/cereal/method/surrogate-health";
import { METRIC_KEYS, metricsFromTable, type MetricValues } from "@/lib/metrics";

const PPI = { pseudo: "soft", lambda: "tuned" } as const;

export interface SoftFit {
  readonly temperature: number;
  readonly shifts: Float64Array;
  /** pi' for the unlabeled rows, [unlabeled x C] */
  readonly proba: Float32Array;
}

/** pi' = normalised pi^(invT) exp(b) per row, and its sums per (class, cluster) over the unlabeled rows */
function reshaped(logPi: Float64Array, clusters: Int32Array, C: number, K: number, invT: number, b: Float64Array, out: Float32Array | null): Float64Array {
  const sums = new Float64Array(C * K);
  const row = new Float64Array(C);
  for (let i = 0; i < clusters.length; i++) {
    const o = i * C;
    let max = -Infinity;
    for (let y = 0; y < C; y++) max = Math.max(max, (row[y] = invT * logPi[o + y] + b[y]));
    let total = 0;
    for (let y = 0; y < C; y++) total += row[y] = Math.exp(row[y] - max);
    const c = clusters[i];
    for (let y = 0; y < C; y++) {
      const p = row[y] / total;
      sums[y * K + c] += p;
      if (out) out[o + y] = p;
    }
  }
  return sums;
}

/** what a fit moves: T alone, T and the class shifts, or the class shifts alone (T = 1) */
type Form = "temperature" | "temperature-prior" | "prior";

/** the fit (T, the class shifts, or both, as `form` says) of the current pi to the ppi cells of one clustering */
export function fitSoftToPpi(input: EstimatorInput, clustering: TestClustering, form: Form): SoftFit {
  const prior = form !== "temperature";
  const proba = input.proba;
  if (!proba) throw new Error("soft-fitted: no surrogate probabilities for the unlabeled rows");
  const C = input.numClasses;
  const K = clustering.k;
  const target = ppiCells(input, clustering, PPI);
  const { rows, labels } = input.labeled;
  // the unlabeled rows' share of each cell: the ppi cells less the labels' exact counts
  for (let i = 0; i < rows.length; i++) target[labels[i] * K + clustering.assignments[rows[i]]] -= 1;
  const u = input.unlabeled.length;
  const clusters = new Int32Array(u);
  for (let i = 0; i < u; i++) clusters[i] = clustering.assignments[input.unlabeled[i]];
  const logPi = new Float64Array(proba.length);
  for (let j = 0; j < proba.length; j++) logPi[j] = Math.log(Math.max(proba[j], 1e-30));
  const b = new Float64Array(C);
  // each cell weighted by 1 / (its soft count at T = 1 plus the rows one label stands for): a Poisson-like variance of the ppi cell
  const start = reshaped(logPi, clusters, C, K, 1, b, null);
  const perLabel = input.n / Math.max(1, rows.length);
  const weight = start.map((s) => 1 / (Math.max(0, s) + perLabel));
  const rowTarget = new Float64Array(C);
  for (let y = 0; y < C; y++) for (let c = 0; c < K; c++) rowTarget[y] += target[y * K + c];
  const fitShifts = (invT: number) => {
    b.fill(0);
    if (!prior) return;
    for (let iteration = 0; iteration < 25; iteration++) {
      const sums = reshaped(logPi, clusters, C, K, invT, b, null);
      let moved = 0;
      for (let y = 0; y < C; y++) {
        let have = 0;
        for (let c = 0; c < K; c++) have += sums[y * K + c];
        // a class the ppi rows read at or below 0 is held at a small share instead of driven to -infinity
        const want = Math.max(rowTarget[y], 0.5);
        const step = Math.log(want / Math.max(have, 1e-9));
        b[y] += step;
        moved = Math.max(moved, Math.abs(step));
      }
      if (moved < 1e-4) break;
    }
  };
  const loss = (logInvT: number) => {
    const invT = Math.exp(logInvT);
    fitShifts(invT);
    const sums = reshaped(logPi, clusters, C, K, invT, b, null);
    let total = 0;
    for (let j = 0; j < sums.length; j++) total += weight[j] * (sums[j] - target[j]) ** 2;
    return total;
  };
  // T = 1 where only the shifts are fitted
  if (form === "prior") {
    fitShifts(1);
    const out = new Float32Array(proba.length);
    reshaped(logPi, clusters, C, K, 1, b, out);
    return { temperature: 1, shifts: b.slice(), proba: out };
  }
  // golden-section search on log(1/T) in [log 1/4, log 8]: 17 steps take the bracket below 1e-3
  const invT = Math.exp(goldenSectionMinimum(loss, Math.log(0.25), Math.log(8), 17));
  fitShifts(invT);
  const out = new Float32Array(proba.length);
  reshaped(logPi, clusters, C, K, invT, b, out);
  return { temperature: 1 / invT, shifts: b.slice(), proba: out };
}

function fittedMetrics(input: EstimatorInput, clustering: TestClustering, form: Form): MetricValues {
  const fit = fitSoftToPpi(input, clustering, form);
  return metricsFromTable(softTable({ ...input, proba: fit.proba }, clustering));
}

function fitted(name: string, form: Form): Estimator {
  return { name, usesSurrogate: true, table: (input, c) => ppiTable(input, c, PPI), metrics: (input, c) => fittedMetrics(input, c, form) };
}

/** the default with its mean's soft side the fitted table: default + (fitted - soft) / 2 where the default takes the mean */
function guardedFitted(name: string, form: Form): Estimator {
  return {
    name,
    usesSurrogate: true,
    table: (input, c) => ppiTable(input, c, PPI),
    metrics(input, c) {
      const base = guardedEstimator.metrics!(input, c);
      const { health } = guardReading(input.labeled, input.draws, input.outOfSample);
      if (health.weak || health.diffuse) return base;
      const soft = metricsFromTable(softTable(input, c));
      const fit = fittedMetrics(input, c, form);
      return Object.fromEntries(METRIC_KEYS.map((k) => [k, base[k] + (fit[k] - soft[k]) / 2])) as MetricValues;
    },
  };
}

export const estimators: Estimator[] = [
  fitted("soft-fitted", "temperature"),
  fitted("soft-fitted-prior", "temperature-prior"),
  fitted("soft-prior", "prior"),
  guardedFitted("guarded-fitted", "temperature"),
  guardedFitted("guarded-fitted-prior", "temperature-prior"),
  guardedFitted("guarded-prior", "prior"),
];
