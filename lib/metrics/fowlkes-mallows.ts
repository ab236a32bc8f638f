/**
 * Fowlkes-Mallows index (Fowlkes & Mallows 1983): FMI = TP / sqrt((TP + FP)(TP + FN)), the
 * geometric mean of pairwise precision and recall, as sklearn.metrics.fowlkes_mallows_score:
 * sqrt(tk / pk) * sqrt(tk / qk), and 0.0 when there are no same-cluster same-class pairs (tk = 0).
 * On expected tables the expected pair counts are used (pair-counts.ts).
 */
import { contingency } from "./contingency";
import type { Labels } from "./labels";
import { pairConfusionFromTable } from "./pair-counts";
import type { TableLike } from "./table";

export function fowlkesMallowsFromTable(table: TableLike): number {
  const { fp, fn, tp } = pairConfusionFromTable(table);
  if (tp === 0) return 0.0;
  const pk = tp + fp;
  const qk = tp + fn;
  return Math.sqrt(tp / pk) * Math.sqrt(tp / qk);
}

export function fowlkesMallows(labelsTrue: Labels, labelsPred: Labels): number {
  return fowlkesMallowsFromTable(contingency(labelsTrue, labelsPred));
}
