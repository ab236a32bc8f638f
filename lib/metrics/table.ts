/**
 * The contingency table every external metric is computed from. Rows are truth classes, columns
 * are clusters. Cells are stored sparsely (only nonzero cells), so an all-singletons labelling of
 * a million items costs O(N) memory instead of N^2. Cells may be real-valued (expected or
 * weighted tables, see expected-contingency.ts).
 */

/**
 * Per-item "diagonal" terms that turn squared sums into pair counts (see pair-counts.ts):
 * with item i contributing w_i * r_i (outer) c_i, these are
 *   cells = sum_i w_i^2 |r_i|^2 |c_i|^2,  rows = sum_i w_i^2 |r_i|^2,
 *   cols  = sum_i w_i^2 |c_i|^2,          items = sum_i w_i^2.
 * For a table of hard counts all four equal N, and sum n_ij^2 - cells = sum n_ij (n_ij - 1).
 */
export interface PairDiagonal {
  readonly cells: number;
  readonly rows: number;
  readonly cols: number;
  readonly items: number;
}

export interface ContingencyTable {
  readonly rows: number;
  readonly cols: number;
  /** nonzero cells, sorted by row then column */
  readonly cellRow: Int32Array;
  readonly cellCol: Int32Array;
  readonly cellValue: Float64Array;
  readonly rowSums: Float64Array;
  readonly colSums: Float64Array;
  readonly total: number;
  /** true when every cell is a whole number (a table of counts) */
  readonly integral: boolean;
  readonly pairDiagonal: PairDiagonal;
}

/** A table argument: a ContingencyTable or a plain matrix, rows = truth classes. */
export type TableLike = ContingencyTable | ArrayLike<ArrayLike<number>>;

export function isContingencyTable(t: TableLike): t is ContingencyTable {
  return (t as ContingencyTable).cellValue instanceof Float64Array;
}

/**
 * Builds a table from nonzero cells that are already sorted by (row, col) and unique.
 * Without `pairDiagonal` the plug-in n_ij (n_ij - 1) / 2 pair counts are used (exact for counts).
 */
export function tableFromSortedCells(
  rows: number,
  cols: number,
  cellRow: Int32Array,
  cellCol: Int32Array,
  cellValue: Float64Array,
  pairDiagonal?: PairDiagonal,
): ContingencyTable {
  const rowSums = new Float64Array(rows);
  const colSums = new Float64Array(cols);
  let total = 0;
  let integral = true;
  for (let c = 0; c < cellValue.length; c++) {
    const v = cellValue[c];
    rowSums[cellRow[c]] += v;
    colSums[cellCol[c]] += v;
    total += v;
    if (integral && !Number.isInteger(v)) integral = false;
  }
  return {
    rows,
    cols,
    cellRow,
    cellCol,
    cellValue,
    rowSums,
    colSums,
    total,
    integral,
    pairDiagonal: pairDiagonal ?? { cells: total, rows: total, cols: total, items: total },
  };
}

/** Accepts a ContingencyTable as is, or converts a plain matrix (rows = truth classes). */
export function asTable(table: TableLike): ContingencyTable {
  if (isContingencyTable(table)) return table;
  const rows = table.length;
  let cols = 0;
  for (let r = 0; r < rows; r++) cols = Math.max(cols, table[r].length);
  const cr: number[] = [];
  const cc: number[] = [];
  const cv: number[] = [];
  for (let r = 0; r < rows; r++) {
    const row = table[r];
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      if (!(v >= 0) || !Number.isFinite(v)) {
        throw new RangeError(`table cell [${r}][${c}] = ${v}: cells must be finite and >= 0`);
      }
      if (v > 0) {
        cr.push(r);
        cc.push(c);
        cv.push(v);
      }
    }
  }
  return tableFromSortedCells(rows, cols, Int32Array.from(cr), Int32Array.from(cc), Float64Array.from(cv));
}

/** The table as a dense row-major matrix (for small tables: AP, tests, display). */
export function denseTable(table: TableLike): number[][] {
  const t = asTable(table);
  const out = Array.from({ length: t.rows }, () => new Array<number>(t.cols).fill(0));
  for (let c = 0; c < t.cellValue.length; c++) out[t.cellRow[c]][t.cellCol[c]] = t.cellValue[c];
  return out;
}

/** Number of rows (or columns) with a positive sum: the labels actually present. */
export function countNonzero(sums: Float64Array): number {
  let k = 0;
  for (let i = 0; i < sums.length; i++) if (sums[i] > 0) k++;
  return k;
}
