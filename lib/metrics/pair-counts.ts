/**
 * Pair counts behind ARI and FMI: sklearn.metrics.cluster.pair_confusion_matrix, which counts
 * ordered pairs of distinct items (each unordered pair twice):
 *   tp = sum_ij n_ij^2 - N            (same class, same cluster)
 *   fp = sum_j b_j^2 - sum_ij n_ij^2  (sklearn's C[0,1]: same cluster, different class)
 *   fn = sum_i a_i^2 - sum_ij n_ij^2  (sklearn's C[1,0]: same class, different cluster)
 *   tn = N^2 - tp - fp - fn - N
 *
 * Expected tables. Let item i fall in cell (j, k) with probability pi_ijk = r_ij c_ik (class and
 * cluster drawn independently per item) and carry weight w_i, so n_jk = sum_i w_i X_ijk with
 * X_i one-hot. The ordered-pair count of a cell is sum_{i != i'} w_i w_i' X_ijk X_i'jk
 * = n_jk^2 - sum_i w_i^2 X_ijk, and since draws are independent across items,
 *   E[n_jk^2 - sum_i w_i^2 X_ijk] = m_jk^2 + sum_i w_i^2 pi_ijk (1 - pi_ijk) - sum_i w_i^2 pi_ijk
 *                                 = m_jk^2 - sum_i w_i^2 pi_ijk^2,          m_jk = E[n_jk].
 * Summed over cells, sum_jk pi_ijk^2 = |r_i|^2 |c_i|^2, so
 *   E[tp] = sum_jk m_jk^2 - sum_i w_i^2 |r_i|^2 |c_i|^2,
 * and likewise for rows (|r_i|^2), columns (|c_i|^2) and all pairs (w_i^2): the table's
 * pairDiagonal. The plug-in m_jk^2 - m_jk (N in place of the diagonal) is biased whenever rows of
 * r or c are not one-hot; for hard counts the two agree exactly. ARI and FMI are then evaluated
 * on these expected pair counts (a ratio of expectations, not the expectation of the ratio).
 * With hard labels and inverse-probability weights w_i = 1 / q_i the same correction gives
 * n^2 - sum_i w_i^2 X_i = sum_{i != i'} X_i X_i' / (q_i q_i'), the Horvitz-Thompson estimate of
 * the population's pair counts under independent (Poisson) sampling.
 */
import { asTable, type TableLike } from "./table";

export interface PairConfusion {
  /** ordered pairs, as sklearn: different class, different cluster */
  readonly tn: number;
  readonly fp: number;
  readonly fn: number;
  readonly tp: number;
}

export function pairConfusionFromTable(table: TableLike): PairConfusion {
  const t = asTable(table);
  const d = t.pairDiagonal;
  let cellSq = 0;
  for (let c = 0; c < t.cellValue.length; c++) cellSq += t.cellValue[c] * t.cellValue[c];
  let rowSq = 0;
  for (let r = 0; r < t.rows; r++) rowSq += t.rowSums[r] * t.rowSums[r];
  let colSq = 0;
  for (let c = 0; c < t.cols; c++) colSq += t.colSums[c] * t.colSums[c];
  const tp = cellSq - d.cells;
  const sameClass = rowSq - d.rows;
  const sameCluster = colSq - d.cols;
  const all = t.total * t.total - d.items;
  const fp = sameCluster - tp;
  const fn = sameClass - tp;
  // each count is >= 0 in exact arithmetic; on real-valued tables clip rounding noise (hard
  // tables are exact integers and never clip)
  return { tp: Math.max(tp, 0), fp: Math.max(fp, 0), fn: Math.max(fn, 0), tn: Math.max(all - tp - fp - fn, 0) };
}
