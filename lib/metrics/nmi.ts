/**
 * Normalized mutual information, NMI = MI / mean(H(truth), H(clusters)) with the generalized mean
 * chosen by `average` (Vinh et al. 2010, Table 2), as sklearn.metrics.normalized_mutual_info_score.
 */
import { contingency } from "./contingency";
import { entropyOfCounts } from "./entropy";
import type { Labels } from "./labels";
import { mutualInfoFromTable } from "./mutual-info";
import { asTable, countNonzero, type TableLike } from "./table";

export type Average = "arithmetic" | "geometric" | "min" | "max";

export function generalizedAverage(u: number, v: number, average: Average): number {
  switch (average) {
    case "arithmetic":
      return (u + v) / 2;
    case "geometric":
      return Math.sqrt(u * v);
    case "min":
      return Math.min(u, v);
    case "max":
      return Math.max(u, v);
    default:
      throw new RangeError(`unknown average '${average as string}'`);
  }
}

/**
 * sklearn's limit cases: both sides one label (or both empty) is a perfect match, 1.0; MI = 0
 * otherwise gives 0.0 (this covers one side being a single cluster).
 */
export function nmiFromTable(table: TableLike, average: Average = "arithmetic"): number {
  const t = asTable(table);
  const classes = countNonzero(t.rowSums);
  const clusters = countNonzero(t.colSums);
  if ((classes === 1 && clusters === 1) || (classes === 0 && clusters === 0)) return 1.0;
  const mi = mutualInfoFromTable(t);
  if (mi === 0) return 0.0;
  const normalizer = generalizedAverage(entropyOfCounts(t.rowSums), entropyOfCounts(t.colSums), average);
  return mi / Math.max(normalizer, Number.EPSILON);
}

export function nmi(labelsTrue: Labels, labelsPred: Labels, average: Average = "arithmetic"): number {
  return nmiFromTable(contingency(labelsTrue, labelsPred), average);
}
