/**
 * Adjusted mutual information (Vinh, Epps & Bailey 2010, eq. 14 family):
 *   AMI = (MI - E[MI]) / (mean(H(truth), H(clusters)) - E[MI]),
 * as sklearn.metrics.adjusted_mutual_info_score (same limit cases and epsilon clamp).
 *
 * Conventions beyond sklearn:
 * - Degenerate denominator (mean entropy == E[MI] to 1e-10 relative, e.g. both labellings all
 *   singletons): sklearn divides rounding noise by rounding noise (its answer is 0 or 1 by
 *   accident). Here: 1.0 when the two labellings are the same partition (MI = H(truth) =
 *   H(clusters)), as sklearn's own single-cluster limit case, else 0.0 (nothing beyond chance).
 * - Real-valued tables (expected or weighted): MI and the entropies are those of the real table;
 *   E[MI] needs whole-count marginals, so it is computed on the row and column sums rounded to
 *   integers by largest remainder (each side then sums to round(total)). Rounding only the
 *   marginals, not every cell, keeps small soft tables intact; on a table of counts nothing moves.
 */
import { contingency } from "./contingency";
import { entropyOfCounts } from "./entropy";
import { expectedMutualInfo } from "./expected-mutual-info";
import type { Labels } from "./labels";
import { mutualInfoFromTable } from "./mutual-info";
import { generalizedAverage, type Average } from "./nmi";
import { asTable, countNonzero, type TableLike } from "./table";

const DEGENERATE = 1e-10;

/** Rounds non-negative values to integers summing to round(sum), by largest remainder (equal remainders: lower index first). */
export function roundMarginals(values: ArrayLike<number>, target?: number): Float64Array {
  const out = new Float64Array(values.length);
  let sum = 0;
  let floorSum = 0;
  for (let i = 0; i < values.length; i++) {
    out[i] = Math.floor(values[i]);
    sum += values[i];
    floorSum += out[i];
  }
  // rows and columns get one shared target, so float noise in their sums cannot split them
  const missing = (target ?? Math.round(sum)) - floorSum;
  if (missing > 0) {
    const order = Array.from(out.keys()).sort((x, y) => values[y] - out[y] - (values[x] - out[x]) || x - y);
    for (let k = 0; k < missing; k++) out[order[k]] += 1;
  }
  return out;
}

export function amiFromTable(table: TableLike, average: Average = "arithmetic"): number {
  const t = asTable(table);
  const classes = countNonzero(t.rowSums);
  const clusters = countNonzero(t.colSums);
  if ((classes === 1 && clusters === 1) || (classes === 0 && clusters === 0)) return 1.0;
  const mi = mutualInfoFromTable(t);
  const emi = t.integral
    ? expectedMutualInfo(t.rowSums, t.colSums)
    : expectedMutualInfo(roundMarginals(t.rowSums, Math.round(t.total)), roundMarginals(t.colSums, Math.round(t.total)));
  const hTrue = entropyOfCounts(t.rowSums);
  const hPred = entropyOfCounts(t.colSums);
  const normalizer = generalizedAverage(hTrue, hPred, average);
  let denominator = normalizer - emi;
  const tol = DEGENERATE * Math.max(1, normalizer);
  if (Math.abs(denominator) <= tol) {
    return Math.abs(mi - hTrue) <= tol && Math.abs(mi - hPred) <= tol ? 1.0 : 0.0;
  }
  denominator = denominator < 0 ? Math.min(denominator, -Number.EPSILON) : Math.max(denominator, Number.EPSILON);
  return (mi - emi) / denominator;
}

export function ami(labelsTrue: Labels, labelsPred: Labels, average: Average = "arithmetic"): number {
  return amiFromTable(contingency(labelsTrue, labelsPred), average);
}
