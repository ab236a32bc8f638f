/**
 * Inverse inclusion weights from the draw records (ARCHITECTURE.md: every draw records its design,
 * score, q and order). A batch drawn in round s from the pool U_{s-1} with inclusion probabilities
 * q_i gives the Horvitz-Thompson estimate of a pool total, sum_{i in batch} z_i / q_i, unbiased for
 * sum_{i in U_{s-1}} z_i conditionally on everything before round s (Horvitz & Thompson 1952).
 * Because each batch is unbiased given the past, the per-batch estimates form a martingale-difference
 * sequence and any combination with weights fixed before the batch is drawn stays unbiased: the
 * batch-wise form of the argument behind the LURE weights of active testing (Kossen et al. 2021,
 * "Active Testing", eq. 3; Farquhar et al. 2021, "On Statistical Bias in Active Learning", eq. 5),
 * which weight single sequential draws instead.
 *
 * Only designs that give every pool row a positive q support the weights: uniform and
 * proportional (whose eps share keeps q > 0). Top-score takes the n best with q = 1 and leaves the
 * rest at q = 0, so nothing can be weighted back to the pool: its labels are exact counts, never
 * a sample (the tied rows at the cut are a randomised sliver, not counted as a sample either).
 */
import type { Design, Draw } from "./designs";

/** designs whose q is a true inclusion probability with every pool row reachable */
export function isProbabilityDesign(design: Design): boolean {
  return design === "uniform" || design === "proportional";
}

/** Horvitz-Thompson weight 1/q of one draw; null when its design is not a probability sample */
export function inverseInclusionWeight(draw: Draw): number | null {
  if (!isProbabilityDesign(draw.design) || !(draw.q > 0)) return null;
  return 1 / draw.q;
}

/** The labeled rows' positions grouped by the round that drew them, in increasing round order. */
export function batchesByRound(draws: readonly Draw[]): { round: number; positions: number[] }[] {
  const byRound = new Map<number, number[]>();
  draws.forEach((d, i) => {
    const list = byRound.get(d.round);
    if (list) list.push(i);
    else byRound.set(d.round, [i]);
  });
  return [...byRound.entries()].sort((a, b) => a[0] - b[0]).map(([round, positions]) => ({ round, positions }));
}

/**
 * Weighted share of correct predictions in a batch: sum_i w_i [pred_i = y_i] / sum_i w_i with
 * w_i = 1/q_i (a ratio estimate of the pool's accuracy; Hajek 1971). Uniform weights when the
 * design is not a probability sample (then it describes the batch, not the pool).
 */
export function weightedAccuracy(predicted: ArrayLike<number>, labels: ArrayLike<number>, weights: ArrayLike<number> | null): number {
  let right = 0;
  let total = 0;
  for (let i = 0; i < labels.length; i++) {
    const w = weights ? weights[i] : 1;
    total += w;
    if (predicted[i] === labels[i]) right += w;
  }
  return total > 0 ? right / total : Number.NaN;
}
