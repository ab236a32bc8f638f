/**
 * contingency(t, p): the table of counts n_ij = #{items with truth class i and cluster j},
 * as sklearn.metrics.cluster.contingency_matrix, in O(N) for tables up to DENSE_LIMIT cells.
 * With a shape, labels are class and cluster indices kept as they are (a class or cluster with
 * no item is an empty row or column), as a view of a project's classes x clusters needs.
 */
import { denseLabels, idsInRange, type Labels } from "./labels";
import { tableFromSortedCells, type ContingencyTable } from "./table";

/** Tables with at most this many cells are counted in a dense array; larger ones by sorting keys. */
const DENSE_LIMIT = 1 << 22;

export function contingency(labelsTrue: Labels, labelsPred: Labels, shape?: { readonly rows: number; readonly cols: number }): ContingencyTable {
  const n = labelsTrue.length;
  if (labelsPred.length !== n) {
    throw new RangeError(`labels differ in length: ${n} truth vs ${labelsPred.length} predicted`);
  }
  const t = shape ? idsInRange(labelsTrue, shape.rows, "class") : denseLabels(labelsTrue);
  const p = shape ? idsInRange(labelsPred, shape.cols, "cluster") : denseLabels(labelsPred);
  const rows = t.k;
  const cols = p.k;
  const cells = rows * cols;
  const ti = t.ids;
  const pi = p.ids;
  let cellRow: Int32Array;
  let cellCol: Int32Array;
  let cellValue: Float64Array;
  if (cells <= DENSE_LIMIT) {
    const counts = new Int32Array(cells);
    for (let i = 0; i < n; i++) counts[ti[i] * cols + pi[i]]++;
    let nnz = 0;
    for (let c = 0; c < cells; c++) if (counts[c] !== 0) nnz++;
    cellRow = new Int32Array(nnz);
    cellCol = new Int32Array(nnz);
    cellValue = new Float64Array(nnz);
    let k = 0;
    for (let c = 0; c < cells; c++) {
      if (counts[c] !== 0) {
        cellRow[k] = (c / cols) | 0;
        cellCol[k] = c % cols;
        cellValue[k++] = counts[c];
      }
    }
  } else {
    // keys r * cols + c stay below 2^53 since rows, cols <= N
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = ti[i] * cols + pi[i];
    keys.sort();
    let nnz = 0;
    for (let i = 0; i < n; i++) if (i === 0 || keys[i] !== keys[i - 1]) nnz++;
    cellRow = new Int32Array(nnz);
    cellCol = new Int32Array(nnz);
    cellValue = new Float64Array(nnz);
    let k = -1;
    for (let i = 0; i < n; i++) {
      if (i === 0 || keys[i] !== keys[i - 1]) {
        k++;
        cellRow[k] = Math.floor(keys[i] / cols);
        cellCol[k] = keys[i] - cellRow[k] * cols;
      }
      cellValue[k]++;
    }
  }
  return tableFromSortedCells(rows, cols, cellRow, cellCol, cellValue, {
    cells: n,
    rows: n,
    cols: n,
    items: n,
  });
}
