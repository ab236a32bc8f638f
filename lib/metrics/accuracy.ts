/**
 * Clustering accuracy ACC = max over one-to-one matchings of classes to clusters of
 * sum of matched n_ij / N (min(classes, clusters) pairs matched), as the oracle's
 * hungarian_accuracy (scipy.optimize.linear_sum_assignment on the contingency table).
 *
 * Zero cells add nothing to a matching, so the bipartite graph of nonzero cells is split into
 * connected components and each is solved densely on its own: an all-singletons table of N items
 * is N components of 1 x 1, not one N x N problem. Empty input gives 1.0 (as sklearn's pair and
 * information metrics on empty input).
 */
import { contingency } from "./contingency";
import { linearSumAssignment } from "./hungarian";
import type { Labels } from "./labels";
import { asTable, type ContingencyTable, type TableLike } from "./table";

function find(parent: Int32Array, x: number): number {
  while (parent[x] !== x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

/** The value of the best one-to-one matching of rows to columns (sum of matched cells). */
export function maxMatching(t: ContingencyTable): number {
  const R = t.rows;
  const n = R + t.cols;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  for (let c = 0; c < t.cellValue.length; c++) {
    const a = find(parent, t.cellRow[c]);
    const b = find(parent, R + t.cellCol[c]);
    if (a !== b) parent[a] = b;
  }
  // group cells by component root
  const cellsOf = new Map<number, number[]>();
  for (let c = 0; c < t.cellValue.length; c++) {
    const root = find(parent, t.cellRow[c]);
    let list = cellsOf.get(root);
    if (!list) cellsOf.set(root, (list = []));
    list.push(c);
  }
  let total = 0;
  const rowIndex = new Int32Array(R).fill(-1);
  const colIndex = new Int32Array(t.cols).fill(-1);
  for (const cells of cellsOf.values()) {
    if (cells.length === 1) {
      total += t.cellValue[cells[0]];
      continue;
    }
    let nr = 0;
    let nc = 0;
    for (const c of cells) {
      if (rowIndex[t.cellRow[c]] === -1) rowIndex[t.cellRow[c]] = nr++;
      if (colIndex[t.cellCol[c]] === -1) colIndex[t.cellCol[c]] = nc++;
    }
    const value = new Float64Array(nr * nc);
    for (const c of cells) value[rowIndex[t.cellRow[c]] * nc + colIndex[t.cellCol[c]]] = t.cellValue[c];
    total += linearSumAssignment(value, nr, nc, true).total;
    for (const c of cells) {
      rowIndex[t.cellRow[c]] = -1;
      colIndex[t.cellCol[c]] = -1;
    }
  }
  return total;
}

export function clusteringAccuracyFromTable(table: TableLike): number {
  const t = asTable(table);
  if (t.total === 0) return 1.0;
  return maxMatching(t) / t.total;
}

export function clusteringAccuracy(labelsTrue: Labels, labelsPred: Labels): number {
  return clusteringAccuracyFromTable(contingency(labelsTrue, labelsPred));
}
