/**
 * Adjusted Rand index (Hubert & Arabie 1985), in sklearn 1.2's pair-confusion form:
 *   ARI = 2 (tp tn - fn fp) / ((tp + fn)(fn + tn) + (tp + fp)(fp + tn)),  1.0 when fn = fp = 0.
 * For hard tables every product is an exact integer below 2^53 up to N ~ 9000, so the result is
 * the correctly rounded value sklearn computes with Python integers.
 * On expected tables the expected pair counts are used (pair-counts.ts).
 */
import { contingency } from "./contingency";
import type { Labels } from "./labels";
import { pairConfusionFromTable } from "./pair-counts";
import type { TableLike } from "./table";

export function ariFromTable(table: TableLike): number {
  const { tn, fp, fn, tp } = pairConfusionFromTable(table);
  if (fn === 0 && fp === 0) return 1.0;
  return (2.0 * (tp * tn - fn * fp)) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
}

export function ari(labelsTrue: Labels, labelsPred: Labels): number {
  return ariFromTable(contingency(labelsTrue, labelsPred));
}
