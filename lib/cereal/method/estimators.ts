/**
 * Estimators (Algorithm 1 step 3): a table of reference classes against a test clustering's
 * clusters, built from the labels and the surrogate's view of the unlabeled items; every metric
 * then comes from that one table (lib/metrics' metricsFromTable). An estimator is a value of the
 * Estimator interface, so later ones (soft, prediction-powered, weighted by the draws' q) plug in
 * without touching the round or the intervals.
 */
import { contingency, metricsFromTable, type ContingencyTable, type MetricValues } from "@/lib/metrics";
import type { Draw } from "./designs";
import {
  guardedBlendCorrectionEstimator,
  guardedBlendCalibratedEstimator,
  guardedLinearPlentifulEstimator,
  guardedBlendEstimator,
  guardedEstimator,
  guardedNoGapEstimator,
  guardedNoOverconfidenceEstimator,
  guardedGapAlwaysEstimator,
  guardedNoReachEstimator,
  guardedNoFloorEstimator,
  guardedNoPoolFloorEstimator,
  guardedJackknifedMeanEstimator,
  guardedOverconfident15Estimator,
  guardedPerClusterEstimator,
  guardedDiffuseAlwaysEstimator,
  guardedPickEstimator,
  guardedPlainPpiEstimator,
  ppiJackknifeEstimator,
} from "./estimators-guarded";
import { softEstimator } from "./estimators-soft";
import type { OutOfSampleRecord } from "./out-of-sample";
import { ppiHardEstimator, ppiHtEstimator, ppiLabelsEstimator, ppiPerClusterEstimator, ppiSizeWeightedEstimator, ppiSoftEstimator, ppiStageRatioEstimator, ppiUntunedEstimator } from "./ppi";
import type { TestClustering } from "./problem";
import type { LabeledRows } from "./surrogate";

export interface EstimatorInput {
  readonly n: number;
  readonly numClasses: number;
  readonly labeled: LabeledRows;
  /** how often each labeled row counts (a bootstrap draw); absent: once each */
  readonly multiplicity?: Int32Array;
  /** rows without a label, increasing */
  readonly unlabeled: Int32Array;
  /** pi(.|x) for the unlabeled rows, [unlabeled x C]; null when no surrogate ran */
  readonly proba: Float32Array | null;
  /** hard pseudo-labels for the unlabeled rows (an interval draw samples them from pi); absent: the estimator's own */
  readonly pseudoLabels?: Int32Array;
  /** how every labeled row was drawn, aligned with labeled.rows (for estimators that weight by q) */
  readonly draws: readonly Draw[];
  /** earlier models' out-of-sample view of every batch (out-of-sample.ts): the ppi estimators need it */
  readonly outOfSample?: OutOfSampleRecord;
}

export interface Estimator {
  readonly name: string;
  /** whether it reads pi(.|x), so a round must fit the surrogate */
  readonly usesSurrogate: boolean;
  /** where its interval sits (intervals.ts): the draws' percentiles (default), or around the point
   * estimate, their spread widened by the estimate's distance to their median (aroundEstimate), for
   * an estimator whose draws come from another, unbiased table (estimators-guarded.ts) */
  readonly intervalCentre?: "draws" | "estimate";
  /** with intervalCentre "estimate": another estimate the interval must reach, widened by its distance to the point
   * estimate where that is larger than the draws' median's (intervals.ts aroundEstimate); null: the draws' median alone */
  intervalReach?(input: EstimatorInput, clustering: TestClustering): MetricValues | null;
  /** per metric, a standard error the draws' spread on each side of their median may not fall below (times the level's
   * normal quantile), read on the point input, for an estimator whose draws are known to understate it (estimators-guarded.ts);
   * absent or null: none */
  intervalSpreadFloor?(input: EstimatorInput, clustering: TestClustering): MetricValues | null;
  /** whether its estimate of this clustering is a prediction-powered table, whose variance rests on how the labels were
   * drawn (round.ts RoundOptions.uniformWhileLabelsCarry); absent: never */
  restsOnLabels?(input: EstimatorInput, clustering: TestClustering): boolean;
  /** its table reads input.pseudoLabels when given: an interval draw samples them from pi (intervals.ts drawInput) */
  readonly readsPseudoLabels?: boolean;
  table(input: EstimatorInput, clustering: TestClustering): ContingencyTable;
  /** the point estimate's metrics when they are not simply the table's (a bias correction, jackknife.ts) */
  metrics?(input: EstimatorInput, clustering: TestClustering): MetricValues;
}

/** the metrics of an estimator's point estimate (estimates and the centre of its interval) */
export function pointMetrics(estimator: Estimator, input: EstimatorInput, clustering: TestClustering): MetricValues {
  return estimator.metrics ? estimator.metrics(input, clustering) : metricsFromTable(estimator.table(input, clustering));
}

/** argmax_y pi(y|x) per row (ties: the lower class id) */
export function pseudoLabel(proba: Float32Array, numClasses: number): Int32Array {
  const n = proba.length / numClasses;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let y = 1; y < numClasses; y++) if (proba[i * numClasses + y] > proba[i * numClasses + best]) best = y;
    out[i] = best;
  }
  return out;
}

/** labeled rows repeated by their multiplicity: the classes and clusters of the sample */
function labeledSample(input: EstimatorInput, clustering: TestClustering, extra: number): { classes: Int32Array; clusters: Int32Array; size: number } {
  const { rows, labels } = input.labeled;
  let size = 0;
  for (let i = 0; i < rows.length; i++) size += input.multiplicity ? input.multiplicity[i] : 1;
  const classes = new Int32Array(size + extra);
  const clusters = new Int32Array(size + extra);
  let j = 0;
  for (let i = 0; i < rows.length; i++) {
    const times = input.multiplicity ? input.multiplicity[i] : 1;
    for (let t = 0; t < times; t++) {
      classes[j] = labels[i];
      clusters[j++] = clustering.assignments[rows[i]];
    }
  }
  return { classes, clusters, size };
}

/** "Random" in the paper's tables: the metric on the labeled items alone. */
export const labelsOnlyEstimator: Estimator = {
  name: "labels",
  usesSurrogate: false,
  table(input, clustering) {
    const { classes, clusters } = labeledSample(input, clustering, 0);
    return contingency(classes, clusters);
  },
};

/** The paper's estimator: labels on the labeled items + the surrogate's argmax on the rest. */
export const argmaxEstimator: Estimator = {
  name: "argmax",
  usesSurrogate: true,
  readsPseudoLabels: true,
  table(input, clustering) {
    const pseudo = input.pseudoLabels ?? (input.proba ? pseudoLabel(input.proba, input.numClasses) : null);
    if (!pseudo) throw new Error("argmax estimator: no surrogate probabilities for the unlabeled rows");
    const { classes, clusters, size } = labeledSample(input, clustering, input.unlabeled.length);
    for (let i = 0; i < input.unlabeled.length; i++) {
      classes[size + i] = pseudo[i];
      clusters[size + i] = clustering.assignments[input.unlabeled[i]];
    }
    return contingency(classes, clusters);
  },
};

/** The registry the command line and the server pick estimators from by name. */
export const ESTIMATORS: Readonly<Record<string, Estimator>> = {
  labels: labelsOnlyEstimator,
  argmax: argmaxEstimator,
  soft: softEstimator,
  ppi: ppiSoftEstimator,
  "ppi-hard": ppiHardEstimator,
  "ppi-per-cluster": ppiPerClusterEstimator,
  "ppi-untuned": ppiUntunedEstimator,
  "ppi-size": ppiSizeWeightedEstimator,
  "ppi-ht": ppiHtEstimator,
  "ppi-stage-ratio": ppiStageRatioEstimator,
  "ppi-labels": ppiLabelsEstimator,
  "ppi-jackknife": ppiJackknifeEstimator,
  guarded: guardedEstimator,
  "guarded-pick": guardedPickEstimator,
  "guarded-no-overconfidence": guardedNoOverconfidenceEstimator,
  "guarded-no-gap": guardedNoGapEstimator,
  "guarded-overconfident-15": guardedOverconfident15Estimator,
  "guarded-plain-ppi": guardedPlainPpiEstimator,
  "guarded-no-reach": guardedNoReachEstimator,
  "guarded-no-floor": guardedNoFloorEstimator,
  "guarded-no-pool-floor": guardedNoPoolFloorEstimator,
  "guarded-jackknifed-mean": guardedJackknifedMeanEstimator,
  "guarded-gap-always": guardedGapAlwaysEstimator,
  "guarded-blend": guardedBlendEstimator,
  "guarded-blend-jk": guardedBlendCorrectionEstimator,
  "guarded-blend-calibrated": guardedBlendCalibratedEstimator,
  "guarded-linear-plentiful": guardedLinearPlentifulEstimator,
  "guarded-per-cluster": guardedPerClusterEstimator,
  "guarded-diffuse-always": guardedDiffuseAlwaysEstimator,
};

/**
 * Names an estimator was registered under before, with the name the same estimator has now: a
 * project's saved setting or a recorded round that names one still runs (and the database
 * migration `retired_estimator_names` rewrote the projects' settings).
 */
const RETIRED_NAMES: Readonly<Record<string, string>> = {
  // the mean, registered under this name while `guarded-linear-plentiful` was the default (2026-12-05 to 2026-12-06)
  "guarded-mean-plentiful": "guarded",
};

/** The name an estimator goes by now: `name` itself unless it is a retired one. */
export function currentEstimatorName(name: string): string {
  return Object.hasOwn(RETIRED_NAMES, name) ? RETIRED_NAMES[name] : name;
}

export function estimatorByName(name: string): Estimator {
  const current = currentEstimatorName(name);
  const estimator = Object.hasOwn(ESTIMATORS, current) ? ESTIMATORS[current] : undefined;
  if (!estimator) throw new Error(`unknown estimator '${name}' (known: ${Object.keys(ESTIMATORS).join(", ")})`);
  return estimator;
}

/** Every metric of every clustering with one estimator (Algorithm 1 step 3). */
export function estimateMetrics(
  input: EstimatorInput,
  clusterings: readonly TestClustering[],
  estimator: Estimator,
): Record<string, MetricValues> {
  const out: Record<string, MetricValues> = {};
  for (const clustering of clusterings) out[clustering.name] = pointMetrics(estimator, input, clustering);
  return out;
}
