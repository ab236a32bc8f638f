/**
 * Rows that must each be a probability distribution (a soft clustering's f(c|x), a surrogate's pi(.|x)): the first row that is
 * not one, for the caller to name in its own error.
 */

/** how far from 1 a row's sum may be (float32 rows written by numpy or TF.js) */
export const ROW_SUM_TOLERANCE = 1e-3;

export type RowFault = { readonly row: number; readonly column: number; readonly value: number } | { readonly row: number; readonly sum: number };

/** the first of the rows of `k` values that holds a negative or NaN entry (that entry) or sums more than `tolerance` from 1 (its sum); null when every row is a distribution */
export function firstRowFault(values: ArrayLike<number>, k: number, tolerance: number = ROW_SUM_TOLERANCE): RowFault | null {
  for (let row = 0; row < values.length / k; row++) {
    let sum = 0;
    for (let column = 0; column < k; column++) {
      const value = values[row * k + column];
      if (!(value >= 0)) return { row, column, value };
      sum += value;
    }
    if (Math.abs(sum - 1) > tolerance) return { row, sum };
  }
  return null;
}
