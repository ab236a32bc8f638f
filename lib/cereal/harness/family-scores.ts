/**
 * How the simulator's chooser of the surrogate's family (selecting-surrogate.ts) scores each candidate
 * on rows its previous model never saw (issue #23; ESTIMATORS.md, "Choosing the surrogate's family").
 * Lower is better; null before any evidence.
 *
 * - `logLossScore`: the mean log-loss at the labels. It scores prediction, row by row, and on weak-warp
 *   it chose the Gaussian mixture whose soft table was 3.7x Random's error while FixMatch's was 0.27x.
 * - `cellBiasScore`: what the soft table needs. Each labeled row i gives, for every clustering and cell
 *   (class y, cluster k), u_i = (1[y_i = y] - pi(y | x_i)) [c_i = k] / (N p_i), an unbiased estimate of the
 *   soft table's bias per item in that cell (p_i = q_i / n_b the draw's probability in a batch of n_b from a
 *   pool of N); the score is the U-statistic sum over cells of ((sum u)^2 - sum u^2) / (m (m - 1)), an
 *   unbiased estimate of the squared cell bias, summed over the clusterings. Errors that cancel within a
 *   cell (the soft table does not see them) cost nothing; a family whose pi sums to the right table wins.
 */
import type { TestClustering } from "../method/problem";

/** rows labeled since the candidates' previous fit, which those models never saw */
export interface FreshRows {
  readonly rows: Int32Array;
  readonly labels: Int32Array;
  /** each row's batch inclusion probability q, aligned with rows; null: drawn uniformly */
  readonly inclusion: Float64Array | null;
  /** unlabeled rows when the batch was drawn */
  readonly pool: number;
}

export interface FamilyScorer {
  /** adds each candidate's predictions of the fresh rows (rows x classes, in candidate order) */
  add(fresh: FreshRows, probas: readonly Float32Array[]): void;
  /** per candidate, lower is better; null before any evidence */
  scores(): (number | null)[];
  /** rows scored so far */
  rows(): number;
}

export type FamilyScorerFactory = (candidates: number, numClasses: number) => FamilyScorer;

/** log-loss is clipped here, so that one confident miss counts as ln(1e6) = 13.8, not infinity */
const MIN_PROBABILITY = 1e-6;

/** the mean log-loss of proba (rows x C) at the labels */
export function meanLogLoss(proba: Float32Array, labels: Int32Array, numClasses: number): number {
  let sum = 0;
  for (let i = 0; i < labels.length; i++) sum -= Math.log(Math.max(proba[i * numClasses + labels[i]], MIN_PROBABILITY));
  return sum / labels.length;
}

export const logLossScore: FamilyScorerFactory = (candidates, numClasses) => {
  const sums = new Float64Array(candidates);
  let scored = 0;
  return {
    add(fresh, probas) {
      probas.forEach((proba, k) => (sums[k] += meanLogLoss(proba, fresh.labels, numClasses) * fresh.rows.length));
      scored += fresh.rows.length;
    },
    scores: () => Array.from(sums, (sum) => (scored > 0 ? sum / scored : null)),
    rows: () => scored,
  };
};

/** the cell-bias score over these clusterings (each a cluster id per row of the embeddings, k clusters) */
export function cellBiasScore(clusterings: readonly Pick<TestClustering, "assignments" | "k">[]): FamilyScorerFactory {
  if (clusterings.length === 0) throw new Error("cellBiasScore: name at least one clustering");
  const sizes = clusterings.map((clustering) => clustering.k);
  return (candidates, numClasses) => {
    // per candidate and clustering, per cell (cluster k, class y) at k C + y: sum u and sum u^2
    const sums = Array.from({ length: candidates }, () => sizes.map((K) => new Float64Array(K * numClasses)));
    const squares = Array.from({ length: candidates }, () => sizes.map((K) => new Float64Array(K * numClasses)));
    let scored = 0;
    return {
      add(fresh, probas) {
        const batch = fresh.rows.length;
        for (let j = 0; j < batch; j++) {
          const scale = fresh.inclusion ? batch / (fresh.inclusion[j] * fresh.pool) : 1;
          if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`cellBiasScore: row ${fresh.rows[j]} has inclusion probability ${fresh.inclusion?.[j]}`);
          probas.forEach((proba, k) =>
            clusterings.forEach(({ assignments }, c) => {
              const base = assignments[fresh.rows[j]] * numClasses;
              for (let y = 0; y < numClasses; y++) {
                const u = ((y === fresh.labels[j] ? 1 : 0) - proba[j * numClasses + y]) * scale;
                sums[k][c][base + y] += u;
                squares[k][c][base + y] += u * u;
              }
            }),
          );
        }
        scored += batch;
      },
      scores: () =>
        sums.map((byClustering, k) => {
          if (scored < 2) return null;
          let total = 0;
          byClustering.forEach((cells, c) => cells.forEach((sum, cell) => (total += sum * sum - squares[k][c][cell])));
          return total / (scored * (scored - 1));
        }),
      rows: () => scored,
    };
  };
}

/**
 * The first candidate (the default family) unless every one of these scores prefers the same other one:
 * that one scores 0 and the rest 1. On the replayed runs (bench/family-choice.ts) log-loss alone chose the
 * mixture on weak-warp, whose soft table was 6x Random's error, and the cell bias alone chose it for a
 * round of the demo, which cost the soft table 0.10x -> 0.26x; neither did where both had to agree.
 */
export function agreeingScore(...inner: FamilyScorerFactory[]): FamilyScorerFactory {
  if (inner.length === 0) throw new Error("agreeingScore: name at least one score");
  return (candidates, numClasses) => {
    const scorers = inner.map((factory) => factory(candidates, numClasses));
    return {
      add: (fresh, probas) => scorers.forEach((scorer) => scorer.add(fresh, probas)),
      scores() {
        const all = scorers.map((scorer) => scorer.scores());
        if (all.some((values) => values.some((v) => v === null))) return new Array<number | null>(candidates).fill(null);
        const preferred = all.map((values) => (values as number[]).indexOf(Math.min(...(values as number[]))));
        const agreed = preferred.every((k) => k === preferred[0]) ? preferred[0] : 0;
        return Array.from({ length: candidates }, (_, k) => (k === agreed ? 0 : 1));
      },
      rows: () => scorers[0].rows(),
    };
  };
}
