/**
 * Mutual information in nats (Vinh, Epps & Bailey 2010, eq. 2):
 *   MI = sum_ij (n_ij / N) log(N n_ij / (a_i b_j)),  a, b the row and column sums.
 * Evaluated term by term as sklearn.metrics.mutual_info_score does (terms below machine epsilon
 * set to 0, result clipped at 0), on counts or on real-valued tables alike.
 */
import { contingency } from "./contingency";
import type { Labels } from "./labels";
import { asTable, countNonzero, type TableLike } from "./table";

export function mutualInfoFromTable(table: TableLike): number {
  const t = asTable(table);
  if (countNonzero(t.rowSums) <= 1 || countNonzero(t.colSums) <= 1) return 0;
  const total = t.total;
  const logTotal = Math.log(total);
  // log(sum a) + log(sum b): both sums equal the total
  const logSums = 2 * logTotal;
  let mi = 0;
  for (let c = 0; c < t.cellValue.length; c++) {
    const v = t.cellValue[c];
    const p = v / total;
    const term =
      p * (Math.log(v) - logTotal) + p * (logSums - Math.log(t.rowSums[t.cellRow[c]] * t.colSums[t.cellCol[c]]));
    if (Math.abs(term) >= Number.EPSILON) mi += term;
  }
  return Math.max(mi, 0);
}

export function mutualInfo(labelsTrue: Labels, labelsPred: Labels): number {
  return mutualInfoFromTable(contingency(labelsTrue, labelsPred));
}
