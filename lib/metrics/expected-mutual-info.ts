/**
 * Expected mutual information under the permutation (hypergeometric) model, the chance term of
 * AMI (Vinh, Epps & Bailey 2010, eq. 24a):
 *
 *   E[MI] = sum_i sum_j sum_{n = max(1, a_i + b_j - N)}^{min(a_i, b_j)}
 *             (n / N) log(N n / (a_i b_j)) P(n; N, a_i, b_j),
 *
 * with P the hypergeometric pmf. scikit-learn evaluates every P(n) with nine log-gamma calls.
 * Here it is exact to double precision and much faster, by two observations:
 *  1. the inner sum depends only on the pair (a_i, b_j), so rows and columns with equal sums are
 *     grouped (an all-singletons labelling of N items costs one evaluation, not N^2);
 *  2. P(n+1) / P(n) = (a - n)(b - n) / ((n + 1)(N - a - b + n + 1)), so the pmf is walked by this
 *     ratio outward from its mode (P(mode) := 1) and normalized by the sum of the walked terms;
 *     the walk stops once a term is below TAIL of the running mass, which (the pmf being
 *     log-concave) bounds what is left far below double precision. No log-gamma is needed.
 */

const TAIL = 1e-18;

function groupCounts(sums: ArrayLike<number>): Map<number, number> {
  const groups = new Map<number, number>();
  for (let i = 0; i < sums.length; i++) {
    const s = sums[i];
    if (s === 0) continue;
    if (!Number.isInteger(s) || s < 0) throw new RangeError(`marginal ${s} is not a whole count`);
    groups.set(s, (groups.get(s) ?? 0) + 1);
  }
  return groups;
}

/** log n for n = 0..max (log 0 unused), shared by every cell of one E[MI] evaluation. */
let logs = new Float64Array(1);
/** log n for n = 1..max (index 0 holds 0), grown as needed and kept: a table per call would cost O(N) in every interval draw. */
function logTable(max: number): Float64Array {
  if (logs.length <= max) {
    const grown = new Float64Array(Math.max(max + 1, 2 * logs.length));
    grown.set(logs);
    for (let n = logs.length; n < grown.length; n++) grown[n] = Math.log(n);
    logs = grown;
  }
  return logs;
}

/**
 * sum_{n >= 1} (n / N) log(N n / (a b)) P(n; N, a, b), the per-cell inner sum of eq. 24a.
 * `logs` must hold log n up to min(a, b).
 */
export function cellExpectedMutualInfo(
  a: number,
  b: number,
  N: number,
  logs: Float64Array = logTable(Math.min(a, b)),
): number {
  const lo = Math.max(0, a + b - N);
  const hi = Math.min(a, b);
  let mode = Math.floor(((a + 1) * (b + 1)) / (N + 2));
  if (mode < lo) mode = lo;
  if (mode > hi) mode = hi;
  const logNOverAB = Math.log(N) - Math.log(a) - Math.log(b);
  const rest = N - a - b;
  const term = (n: number) => (n === 0 ? 0 : (n / N) * (logNOverAB + logs[n]));
  let mass = 1;
  let weighted = term(mode);
  let p = 1;
  for (let n = mode + 1; n <= hi; n++) {
    p *= ((a - n + 1) * (b - n + 1)) / (n * (rest + n));
    mass += p;
    weighted += p * term(n);
    if (p < TAIL * mass) break;
  }
  p = 1;
  for (let n = mode - 1; n >= lo; n--) {
    // P(n) / P(n + 1) = (n + 1)(N - a - b + n + 1) / ((a - n)(b - n))
    p *= ((n + 1) * (rest + n + 1)) / ((a - n) * (b - n));
    mass += p;
    weighted += p * term(n);
    if (p < TAIL * mass) break;
  }
  return weighted / mass;
}

/**
 * E[MI] in nats for whole-count marginals (row sums a, column sums b, sum a = sum b = N).
 * Zero marginals are ignored; a labelling with one label has E[MI] = 0 (as sklearn).
 */
export function expectedMutualInfo(rowSums: ArrayLike<number>, colSums: ArrayLike<number>): number {
  const rows = groupCounts(rowSums);
  const cols = groupCounts(colSums);
  let nRows = 0;
  let nCols = 0;
  let N = 0;
  let Nc = 0;
  for (const [a, count] of rows) {
    nRows += count;
    N += a * count;
  }
  for (const [b, count] of cols) {
    nCols += count;
    Nc += b * count;
  }
  if (N !== Nc) throw new RangeError(`row sums total ${N} but column sums total ${Nc}`);
  if (nRows <= 1 || nCols <= 1) return 0;
  let maxA = 0;
  for (const a of rows.keys()) maxA = Math.max(maxA, a);
  let maxB = 0;
  for (const b of cols.keys()) maxB = Math.max(maxB, b);
  const logs = logTable(Math.min(maxA, maxB));
  let emi = 0;
  for (const [a, ca] of rows) {
    for (const [b, cb] of cols) emi += ca * cb * cellExpectedMutualInfo(a, b, N, logs);
  }
  return emi;
}
