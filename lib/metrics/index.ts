/**
 * lib/metrics: clustering metrics as pure functions. External metrics compare truth classes
 * (rows) with clusters (columns) through one contingency table; each has a label form and a
 * table form. Internal metrics score a clustering of points without labels.
 */
export type { Labels, DenseLabels } from "./labels";
export { denseLabels } from "./labels";
export type { ContingencyTable, PairDiagonal, TableLike } from "./table";
export { asTable, denseTable } from "./table";
export { contingency } from "./contingency";
export type { Assignments, HardIds, SoftLabels } from "./expected-contingency";
export { expectedContingency } from "./expected-contingency";
export { entropy, entropyOfCounts } from "./entropy";
export { mutualInfo, mutualInfoFromTable } from "./mutual-info";
export type { Average } from "./nmi";
export { nmi, nmiFromTable, generalizedAverage } from "./nmi";
export { cellExpectedMutualInfo, expectedMutualInfo } from "./expected-mutual-info";
export { ami, amiFromTable, roundMarginals } from "./ami";
export type { PairConfusion } from "./pair-counts";
export { pairConfusionFromTable } from "./pair-counts";
export { ari, ariFromTable } from "./ari";
export { fowlkesMallows, fowlkesMallowsFromTable } from "./fowlkes-mallows";
export type { HomogeneityCompleteness } from "./v-measure";
export {
  homogeneity,
  completeness,
  vMeasure,
  homogeneityFromTable,
  completenessFromTable,
  vMeasureFromTable,
  homogeneityCompletenessFromTable,
} from "./v-measure";
export type { Assignment } from "./hungarian";
export { linearSumAssignment } from "./hungarian";
export { clusteringAccuracy, clusteringAccuracyFromTable } from "./accuracy";
export type { ApResult } from "./ap";
export { apMetric } from "./ap";
export type { F1Result } from "./f1";
export { f1Contingency } from "./f1";
export type { MetricKey, MetricValues } from "./metrics-from-table";
export { clampMetric, METRIC_KEYS, METRIC_RANGE, metricsFromTable } from "./metrics-from-table";
export { METRIC_NAMES } from "./metric-names";
export type { SilhouetteMetric, SilhouetteOptions, SilhouetteResult } from "./silhouette";
export { silhouette, silhouetteSamples } from "./silhouette";
export { calinskiHarabasz } from "./calinski-harabasz";
export { daviesBouldin } from "./davies-bouldin";
