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
export type { Assignments, SoftLabels } from "./expected-contingency";
export { expectedContingency } from "./expected-contingency";
export { entropy, entropyOfCounts } from "./entropy";
export { mutualInfo, mutualInfoFromTable } from "./mutual-info";
export type { Average } from "./nmi";
export { nmi, nmiFromTable, generalizedAverage } from "./nmi";
