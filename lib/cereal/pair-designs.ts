/**
 * Pair draws for pairwise annotation ("same class or not?"). A pair is unordered: (i, j) with
 * i < j. The uniform design draws pairs of distinct rows, each unordered pair with the same
 * probability, skipping pairs already taken.
 */
import type { Random } from "./random";

export interface PairDraw {
  readonly row: number;
  readonly rowB: number;
  readonly score: number | null;
  /** probability that the batch includes this pair: n / (number of pairs not yet taken) */
  readonly q: number;
}

export const pairKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** `count` distinct new pairs of rows in 0..n-1, uniformly; `taken` holds pairKey()s to avoid. */
export function drawUniformPairs(n: number, count: number, random: Random, taken: ReadonlySet<string> = new Set()): PairDraw[] {
  const total = (n * (n - 1)) / 2 - taken.size;
  const size = Math.max(0, Math.min(count, total));
  const q = total > 0 ? size / total : 0;
  const seen = new Set<string>();
  const out: PairDraw[] = [];
  // Rejection sampling: fine while the pairs drawn are a small share of all n(n-1)/2 pairs.
  while (out.length < size) {
    const a = random.int(n);
    const b = random.int(n);
    if (a === b) continue;
    const key = pairKey(a, b);
    if (taken.has(key) || seen.has(key)) continue;
    seen.add(key);
    out.push({ row: Math.min(a, b), rowB: Math.max(a, b), score: null, q });
  }
  return out;
}
