/**
 * Pair draws for pairwise annotation ("same class or not?"). A pair is unordered: (i, j) with
 * i < j. The uniform design draws pairs of distinct rows, each unordered pair with the same
 * probability, skipping pairs already taken.
 */
import { drawTopScore, type Design } from "../method/designs";
import { sameProbability } from "./pair-surrogate";
import type { Random } from "../../random/named-streams";

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

/**
 * The named pair designs (issue #10; paper section 5.3): `random` draws uniform pairs;
 * `uncertain` takes the pairs whose predicted same-probability P_ij = sum_k p_ik p_jk is nearest
 * 0.5 among a uniform candidate pool; `anchor` pairs items with representatives of the current
 * pseudo-clusters, which makes "same" answers common (random pairs are about 1 - 1/K "different").
 */
export type PairDesign = "random" | "uncertain" | "anchor";
export const PAIR_DESIGNS: readonly PairDesign[] = ["random", "uncertain", "anchor"];

/**
 * The recommended pair design of a pairwise project (and of `simulate --recommended --mode pairwise`):
 * uniform pairs, which gave the lowest AEC of the three designs on digits (issue #10 note: NMI AEC
 * per 1000 answers, random 0.058; uncertain 0.367 and anchor 0.380 trained on their own pairs). The
 * uniform share applies to the uncertain and anchor designs: half uniform recovered most of the gap
 * (0.18-0.20 vs 0.43-0.44 with 500-pair batches), so an owner who picks one of them gets half.
 * Measured again with the five-fit estimate (MEASUREMENTS.md, "The pair designs with the five-fit
 * estimate"; 20 seeds, stages of 200 to 1,000 answers): half-uniform uncertain and anchor pairs
 * are 2.0-2.4x random pairs' NMI AEC on digits and the demo.
 */
export const RECOMMENDED_PAIRS: { readonly pairDesign: PairDesign; readonly pairUniformShare: number } = { pairDesign: "random", pairUniformShare: 0.5 };

/** How each pair design samples, in the item designs' vocabulary (a task's `design` field). */
export const PAIR_DESIGN_SAMPLING: Readonly<Record<PairDesign, Design>> = {
  random: "uniform",
  uncertain: "top-score",
  // the item is drawn uniformly; its partner follows from the item's predicted clusters
  anchor: "uniform",
};

/** A pair draw stamped like an item Draw: its sampling design, draw order and round. */
export interface PairDrawRecord extends PairDraw {
  readonly design: Design;
  readonly order: number;
  readonly round: number;
}

/** p(.|x) of every row 0..n-1, [n x k] row-major: what the model-based designs read. */
export interface PairPredictions {
  readonly proba: Float32Array;
  readonly k: number;
}

export interface PairDesignOptions {
  /** uncertain: candidate pairs per pair drawn (default 20) */
  readonly candidatesPerPair?: number;
  /**
   * uncertain and anchor: share of the batch drawn as uniform pairs besides the design's own
   * (default 0). The MCL surrogate learns the pair distribution it is trained on; uniform pairs
   * keep every item's neighbourhood in it.
   */
  readonly uniformShare?: number;
}

/** One design's part of a batch. */
export interface PairDrawGroup {
  readonly design: Design;
  readonly draws: PairDraw[];
}

/**
 * Draws `count` new pairs of rows 0..n-1 by a named design: the design's own pairs, then the
 * uniform share (with any shortfall of the design's own) as one uniform draw. Without
 * predictions (the seed batch) every design falls back to uniform pairs.
 * `taken` holds pairKey()s never to draw.
 */
export function drawPairs(
  design: PairDesign,
  n: number,
  count: number,
  random: Random,
  taken: ReadonlySet<string>,
  predictions: PairPredictions | null,
  options: PairDesignOptions = {},
): PairDrawGroup[] {
  if (design === "random" || !predictions) return [{ design: "uniform", draws: drawUniformPairs(n, count, random, taken) }];
  const uniform = Math.round(count * Math.min(1, Math.max(0, options.uniformShare ?? 0)));
  const own =
    design === "uncertain"
      ? { design: "top-score" as const, draws: drawUncertainPairs(n, count - uniform, random, taken, predictions, options.candidatesPerPair ?? 20) }
      : { design: "uniform" as const, draws: drawAnchorPairs(n, count - uniform, random, taken, predictions) };
  // the uniform pairs: the share, and whatever the design's own fell short of, in one uniform draw
  const rest = count - own.draws.length;
  if (rest === 0) return [own];
  const after = new Set(taken);
  for (const d of own.draws) after.add(pairKey(d.row, d.rowB));
  return [own, { design: "uniform", draws: drawUniformPairs(n, rest, random, after) }];
}

/**
 * Whether a pair was drawn uniformly over every pair not taken before it (a random-pairs stage, the
 * uniform share of a mixed one; the design's own pairs of the stage count as taken): then its q is
 * its exact inclusion probability given the pairs drawn before it, and the pair-count estimates
 * (pair-count-ppi.ts) may weight it by 1 / q. Uniform draws are the ones that record no score; the
 * uncertain and anchor designs' own pairs record their P_ij.
 */
export const isUniformPairDraw = (d: { readonly design: string; readonly score: number | null }) => d.design === "uniform" && d.score === null;

/**
 * Uncertain pairs: a uniform pool of candidatesPerPair x count new pairs, then the `count` with
 * the highest score 1 - |2 P_ij - 1| (1 at P = 0.5). q = (pool size / pairs left) x the
 * top-score inclusion within the pool (1, or places / ties at the cut).
 */
export function drawUncertainPairs(
  n: number,
  count: number,
  random: Random,
  taken: ReadonlySet<string>,
  predictions: PairPredictions,
  candidatesPerPair = 20,
): PairDraw[] {
  const pool = drawUniformPairs(n, count * candidatesPerPair, random, taken);
  if (pool.length === 0) return [];
  const { proba, k } = predictions;
  const scores = Float64Array.from(pool, (p) => 1 - Math.abs(2 * sameProbability(proba, k, p.row, p.rowB) - 1));
  const top = drawTopScore(Int32Array.from(pool.keys()), scores, count, random);
  return top.map((d) => ({ row: pool[d.row].row, rowB: pool[d.row].rowB, score: d.score, q: pool[d.row].q * d.q }));
}

/**
 * Anchor pairs: each pseudo-cluster (argmax id) is represented by its most confident row; items
 * are drawn uniformly and paired with the representative of their most likely cluster (even
 * draws: confirms or refutes the assignment) or of their second most likely (odd draws: probes
 * the nearest confusion). score = P(item, representative); q = count / n, the item's inclusion.
 * Pairs already taken are skipped; fewer than `count` come back once the anchor pairs run out
 * (drawPairs fills the shortfall with uniform pairs).
 */
export function drawAnchorPairs(n: number, count: number, random: Random, taken: ReadonlySet<string>, predictions: PairPredictions): PairDraw[] {
  const { proba, k } = predictions;
  const representative = new Int32Array(k).fill(-1);
  const best = new Float64Array(k).fill(-1);
  for (let i = 0; i < n; i++) {
    let c = 0;
    for (let j = 1; j < k; j++) if (proba[i * k + j] > proba[i * k + c]) c = j;
    if (proba[i * k + c] > best[c]) {
      best[c] = proba[i * k + c];
      representative[c] = i;
    }
  }
  const order = random.shuffle(Int32Array.from({ length: n }, (_, i) => i));
  const seen = new Set<string>();
  const out: PairDraw[] = [];
  const q = Math.min(1, count / n);
  for (const item of order) {
    if (out.length >= count) break;
    // clusters with a representative, most likely first for this item
    const ranked = Array.from({ length: k }, (_, c) => c)
      .filter((c) => representative[c] >= 0 && representative[c] !== item)
      .sort((a, b) => proba[item * k + b] - proba[item * k + a] || a - b);
    const rank = Math.min(out.length % 2, ranked.length - 1);
    if (rank < 0) continue;
    const partner = representative[ranked[rank]];
    const key = pairKey(item, partner);
    if (taken.has(key) || seen.has(key)) continue;
    seen.add(key);
    out.push({ row: Math.min(item, partner), rowB: Math.max(item, partner), score: sameProbability(proba, k, item, partner), q });
  }
  return out;
}

/** Stamps the groups of a batch with their designs, draw order (from `firstOrder`) and round. */
export function recordPairGroups(groups: readonly PairDrawGroup[], round: number, firstOrder: number): PairDrawRecord[] {
  const out: PairDrawRecord[] = [];
  for (const g of groups) out.push(...recordPairDraws(g.draws, g.design, round, firstOrder + out.length));
  return out;
}

/** Stamps a batch of pairs with its design, draw order (from `firstOrder`) and round. */
export function recordPairDraws(batch: readonly PairDraw[], design: Design, round: number, firstOrder: number): PairDrawRecord[] {
  return batch.map((d, i) => ({ ...d, design, order: firstOrder + i, round }));
}
