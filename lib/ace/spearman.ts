/**
 * Spearman's rank correlation: Pearson's correlation of the ranks, ties given their average rank
 * (scipy.stats.spearmanr), and the one-sided test of a positive correlation through
 *   t = r sqrt((n - 2) / (1 - r^2)) ~ Student t with n - 2 degrees of freedom,
 * scipy's spearmanr(..., alternative="greater").
 */
import { studentTSurvival } from "./student-t";

/** 1-based ranks, ties sharing the mean of the ranks they span. */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Float64Array(n);
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && values[order[end]] === values[order[start]]) end++;
    const rank = (start + 1 + end) / 2; // mean of start + 1 .. end
    for (let i = start; i < end; i++) ranks[order[i]] = rank;
    start = end;
  }
  return ranks;
}

/** Pearson's correlation; NaN when either side is constant. */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  if (b.length !== n) throw new RangeError(`vectors of lengths ${n} and ${b.length}`);
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i] - ma;
    const db = b[i] - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return NaN;
  return Math.max(-1, Math.min(1, sab / Math.sqrt(saa * sbb)));
}

export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return pearson(averageRanks(a), averageRanks(b));
}

/** One-sided p-value of H1: rho > 0, for a Spearman correlation r over n pairs. */
export function positiveCorrelationPValue(r: number, n: number): number {
  if (n < 3 || Number.isNaN(r)) return NaN;
  if (r >= 1) return 0;
  if (r <= -1) return 1;
  const t = r * Math.sqrt((n - 2) / (1 - r * r));
  return studentTSurvival(t, n - 2);
}
