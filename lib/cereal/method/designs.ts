/**
 * Sampling designs: how a batch is drawn from the unlabeled pool U. Every draw records its
 * design, the acquisition score, its inclusion probability q (given everything drawn before)
 * and its draw order, so that estimators can weight labels later (ARCHITECTURE.md contracts).
 */
import type { Random } from "../../random/named-streams";

export const DESIGNS = ["uniform", "top-score", "proportional"] as const;
export type Design = (typeof DESIGNS)[number];

export interface Draw {
  /** index into the embedding matrix */
  readonly row: number;
  readonly design: Design;
  /** the acquisition score the draw was made on; null for uniform draws, which use none */
  readonly score: number | null;
  /** probability that this batch includes the row, given the pool and scores at draw time */
  readonly q: number;
  /** position in the whole run's sequence of draws, from 0 (the seed batch comes first) */
  readonly order: number;
  /** the round that acquired it (0 = the seed batch) */
  readonly round: number;
}

/** A batch before it is stamped with order and round. */
export interface DesignDraw {
  readonly row: number;
  readonly score: number | null;
  readonly q: number;
}

/** Simple random sampling without replacement: q = n / |U| for every row. */
export function drawUniform(pool: Int32Array, n: number, random: Random): DesignDraw[] {
  const size = Math.min(n, pool.length);
  const order = Int32Array.from(pool);
  // partial Fisher-Yates: the first `size` entries are a uniform sample, in draw order
  for (let i = 0; i < size; i++) {
    const j = i + random.int(order.length - i);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  const q = pool.length === 0 ? 0 : size / pool.length;
  return Array.from(order.subarray(0, size), (row) => ({ row, score: null, q }));
}

/**
 * The n highest scores: q = 1. Ties at the cut are broken at random (scores tie often: Hard NMI
 * gives every item of a cell the same score), and the tied rows get q = places left / rows tied,
 * their true inclusion probability.
 */
export function drawTopScore(pool: Int32Array, scores: Float64Array, n: number, random: Random): DesignDraw[] {
  const size = Math.min(n, pool.length);
  const tieBreak = random.shuffle(Int32Array.from({ length: pool.length }, (_, i) => i));
  const rank = new Int32Array(pool.length);
  tieBreak.forEach((position, r) => (rank[position] = r));
  const positions = Array.from({ length: pool.length }, (_, i) => i);
  positions.sort((a, b) => scores[b] - scores[a] || rank[a] - rank[b]);
  const chosen = positions.slice(0, size);
  if (size === 0) return [];
  const cut = scores[chosen[size - 1]];
  let tiedInside = 0;
  for (const i of chosen) if (scores[i] === cut) tiedInside++;
  let tiedAll = 0;
  for (let i = 0; i < pool.length; i++) if (scores[i] === cut) tiedAll++;
  return chosen.map((i) => ({ row: pool[i], score: scores[i], q: scores[i] === cut ? tiedInside / tiedAll : 1 }));
}

/**
 * Inclusion probabilities of the proportional design: q_i = n * p_i with
 * p_i = (1 - eps) * s_i / sum(s) + eps / |U| (the eps share keeps every row reachable, so
 * inverse-probability weights stay finite). Rows whose q would exceed 1 are taken with
 * certainty and the rest rescaled, so sum(q) = min(n, |U|) exactly as a fixed-size design needs.
 * Negative scores count as 0 (a score is a sampling weight here).
 */
export function inclusionProbabilities(scores: Float64Array, n: number, eps = 0.1): Float64Array {
  const size = scores.length;
  const take = Math.min(n, size);
  const q = new Float64Array(size);
  if (size === 0 || take === 0) return q;
  let sum = 0;
  for (let i = 0; i < size; i++) sum += Math.max(0, scores[i]);
  const mix = sum > 0 ? eps : 1;
  for (let i = 0; i < size; i++) q[i] = (sum > 0 ? ((1 - mix) * Math.max(0, scores[i])) / sum : 0) + mix / size;
  // cap at 1 and spread the excess over the uncapped rows until none exceeds 1
  const capped = new Uint8Array(size);
  let remaining = take;
  for (;;) {
    let free = 0;
    for (let i = 0; i < size; i++) if (!capped[i]) free += q[i];
    let newlyCapped = false;
    for (let i = 0; i < size; i++) {
      if (capped[i]) continue;
      const value = (q[i] * remaining) / free;
      if (value >= 1) {
        capped[i] = 1;
        newlyCapped = true;
      }
    }
    if (!newlyCapped) {
      for (let i = 0; i < size; i++) q[i] = capped[i] ? 1 : (q[i] * remaining) / free;
      return q;
    }
    remaining = take;
    for (let i = 0; i < size; i++) if (capped[i]) remaining -= 1;
    if (remaining <= 0) {
      for (let i = 0; i < size; i++) q[i] = capped[i] ? 1 : 0;
      return q;
    }
  }
}

/**
 * Proportional design: n rows without replacement with inclusion probabilities q
 * (inclusionProbabilities). Randomised systematic sampling (Madow 1949 on a random order)
 * realises exactly these q for a fixed batch size, which sequential weighted draws do not.
 * Draw order is the order along the random permutation.
 */
export function drawProportional(pool: Int32Array, scores: Float64Array, n: number, random: Random, eps = 0.1): DesignDraw[] {
  const q = inclusionProbabilities(scores, n, eps);
  const take = Math.min(n, pool.length);
  const positions = random.shuffle(Int32Array.from({ length: pool.length }, (_, i) => i));
  const start = random.next();
  const draws: DesignDraw[] = [];
  let cumulative = 0;
  let next = start;
  for (const i of positions) {
    const before = cumulative;
    cumulative += q[i];
    // a row is selected when the grid start + k (k = 0, 1, ...) falls in [before, cumulative)
    if (next >= before && next < cumulative && draws.length < take) {
      draws.push({ row: pool[i], score: scores[i], q: q[i] });
      next += 1;
    }
  }
  // floating-point rounding can leave the last grid point just past the total: take the
  // largest-q rows not yet chosen (vanishingly rare; keeps the batch size fixed)
  if (draws.length < take) {
    const chosen = new Set(draws.map((d) => d.row));
    const rest = Array.from({ length: pool.length }, (_, i) => i)
      .filter((i) => !chosen.has(pool[i]))
      .sort((a, b) => q[b] - q[a] || a - b);
    for (const i of rest.slice(0, take - draws.length)) draws.push({ row: pool[i], score: scores[i], q: q[i] });
  }
  return draws;
}

/** Stamps a batch with its draw order (continuing from `firstOrder`) and round. */
export function recordDraws(batch: readonly DesignDraw[], design: Design, round: number, firstOrder: number): Draw[] {
  return batch.map((d, i) => ({ row: d.row, design, score: d.score, q: d.q, order: firstOrder + i, round }));
}

/** n draws from the pool by the named design (uniform ignores the scores); the one switch over designs. */
export function drawByDesign(design: Design, pool: Int32Array, scores: Float64Array, n: number, random: Random, eps = 0.1): DesignDraw[] {
  if (design === "uniform") return drawUniform(pool, n, random);
  if (design === "top-score") return drawTopScore(pool, scores, n, random);
  return drawProportional(pool, scores, n, random, eps);
}
