/**
 * ACE, Adaptive Clustering Evaluation (Z. Wang & C. Ye, "Deep Clustering Evaluation: How to
 * Validate Internal Clustering Validation Measures", arXiv 2403.14830; reference code
 * ZeyaWang/ACE utils.eval_ace), for one internal measure at a time:
 *   (1) keep the spaces whose first principal component rejects unimodality (dip test, Holm at
 *       0.05); all spaces when none does;
 *   (2) Spearman correlations between the spaces' score vectors over the clusterings (spaces
 *       whose scores are all equal dropped);
 *   (3) phase 1: HDBSCAN (min_cluster_size 2) on 1 - correlation, its outliers dropped; phase 2:
 *       in a group of more than 5 spaces, HDBSCAN on the Euclidean distances between the score
 *       vectors, its outliers becoming singleton subgroups. When HDBSCAN calls every space an
 *       outlier (too few spaces for a split), its GLOSH scores decide as in the reference code:
 *       outliers are the scores above Q3 + 1.5 IQR, the rest one group;
 *   (4) per subgroup, a graph with an edge where the one-sided test of a positive correlation
 *       rejects (Holm over all pairs at 0.1), weighted by the correlation; PageRank (d = 0.85)
 *       gives the space weights and score(c) = sum_s w_s pi(c | Z_s) / sum_s w_s;
 *   (5) the subgroup with the highest mean weighted score gives the ACE scores.
 */
import { hdbscan } from "./hdbscan";
import { holmReject } from "./holm";
import { pageRank } from "./pagerank";
import { positiveCorrelationPValue, spearman } from "./spearman";

export interface AceOptions {
  /** family-wise level of the dip tests (default 0.05) */
  readonly dipAlpha?: number;
  /** family-wise level of the correlation edges (default 0.1) */
  readonly graphAlpha?: number;
  readonly minClusterSize?: number;
  /** groups larger than this are split in phase 2 (default 5) */
  readonly maxGroupSize?: number;
  readonly damping?: number;
}

export interface AceInput {
  readonly spaces: readonly string[];
  /** scores[s][c], higher is better; NaN for undefined scores */
  readonly scores: readonly (readonly number[])[];
  /** dip-test p-value of each space */
  readonly dipPValues: readonly number[];
}

export interface AceSubgroup {
  readonly spaces: readonly string[];
  /** PageRank weights, summing to 1 */
  readonly weights: readonly number[];
  /** weighted score per clustering */
  readonly scores: readonly number[];
  readonly meanScore: number;
}

export interface AceResult {
  /** ACE score per clustering (the chosen subgroup's weighted score) */
  readonly scores: readonly number[];
  readonly chosen: AceSubgroup;
  readonly subgroups: readonly AceSubgroup[];
  /** spaces that passed the dip screening (step 1) */
  readonly multimodalSpaces: readonly string[];
  /** spaces dropped for constant scores (step 2) */
  readonly constantSpaces: readonly string[];
  /** phase-1 outliers, dropped */
  readonly outlierSpaces: readonly string[];
  /** Spearman correlations between the analysed spaces (in `analysedSpaces` order) */
  readonly analysedSpaces: readonly string[];
  readonly correlations: readonly (readonly number[])[];
}

/** numpy's default (linear) quantile of ascending values. */
function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const lo = Math.floor(position);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (position - lo) * (sorted[hi] - sorted[lo]);
}

/** HDBSCAN labels, with the reference code's GLOSH/IQR rule when every point is an outlier. */
function densityGroups(distances: number[][], minClusterSize: number): Int32Array {
  const result = hdbscan(distances, { minClusterSize });
  if (result.clusterCount > 0) return result.labels;
  const sorted = Array.from(result.outlierScores).sort((a, b) => a - b);
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const threshold = q3 + 1.5 * (q3 - q1);
  return Int32Array.from(result.outlierScores, (s) => (s > threshold ? -1 : 0));
}

function weightedSubgroup(indices: readonly number[], names: readonly string[], scores: readonly (readonly number[])[], affinity: number[][], damping: number): AceSubgroup {
  const weights =
    indices.length === 1 ? [1] : pageRank(indices.map((i) => indices.map((j) => (i === j ? 0 : affinity[i][j]))), { damping });
  const total = weights.reduce((a, b) => a + b, 0);
  const normalized = weights.map((w) => w / total);
  const clusterings = scores[0].length;
  const weighted = Array.from({ length: clusterings }, (_, c) => indices.reduce((s, i, k) => s + normalized[k] * scores[i][c], 0));
  return {
    spaces: indices.map((i) => names[i]),
    weights: normalized,
    scores: weighted,
    meanScore: weighted.reduce((a, b) => a + b, 0) / clusterings,
  };
}

export function ace(input: AceInput, options: AceOptions = {}): AceResult {
  const dipAlpha = options.dipAlpha ?? 0.05;
  const graphAlpha = options.graphAlpha ?? 0.1;
  const minClusterSize = options.minClusterSize ?? 2;
  const maxGroupSize = options.maxGroupSize ?? 5;
  const damping = options.damping ?? 0.85;
  const m = input.spaces.length;
  if (m === 0 || input.scores.length !== m || input.dipPValues.length !== m)
    throw new RangeError("ACE needs one score row and one dip p-value per space");
  const clusterings = input.scores[0].length;
  if (clusterings < 3) throw new RangeError("ACE needs at least 3 clusterings to correlate spaces");

  // undefined scores count as the worst score seen (reference code: nan_to_num with the minimum)
  let worst = Infinity;
  for (const row of input.scores) for (const v of row) if (!Number.isNaN(v)) worst = Math.min(worst, v);
  const filled = input.scores.map((row) => row.map((v) => (Number.isNaN(v) ? worst : v)));

  // (1) dip screening
  const reject = holmReject(input.dipPValues as number[], dipAlpha);
  let kept = input.spaces.map((_, i) => i).filter((i) => reject[i]);
  if (kept.length === 0) kept = input.spaces.map((_, i) => i);
  const multimodalSpaces = kept.map((i) => input.spaces[i]);

  // (2) drop constant score vectors, correlate the rest
  const constant = kept.filter((i) => filled[i].every((v) => v === filled[i][0]));
  const analysed = kept.filter((i) => !constant.includes(i));
  if (analysed.length === 0) throw new RangeError("every screened space gives all clusterings the same score");
  const names = analysed.map((i) => input.spaces[i]);
  const scores = analysed.map((i) => filled[i]);
  const a = analysed.length;
  const correlations = scores.map((si, i) => scores.map((sj, j) => (i === j ? 1 : spearman(si, sj))));

  // (4, prepared) edges where the positive correlation is significant after Holm
  const pairs: [number, number][] = [];
  for (let i = 0; i < a; i++) for (let j = i + 1; j < a; j++) pairs.push([i, j]);
  const edgeReject = holmReject(
    pairs.map(([i, j]) => positiveCorrelationPValue(correlations[i][j], clusterings)),
    graphAlpha,
  );
  const affinity = correlations.map((row) => row.map(() => 0));
  pairs.forEach(([i, j], p) => {
    if (edgeReject[p] && correlations[i][j] > 0) affinity[i][j] = affinity[j][i] = correlations[i][j];
  });

  // (3) stage-wise grouping
  let subgroupIndices: number[][];
  let outliers: number[] = [];
  if (a === 1) {
    subgroupIndices = [[0]];
  } else {
    const phase1 = densityGroups(
      correlations.map((row, i) => row.map((r, j) => (i === j ? 0 : 1 - r))),
      minClusterSize,
    );
    outliers = [...phase1.keys()].filter((i) => phase1[i] < 0);
    subgroupIndices = [];
    const groupCount = Math.max(-1, ...phase1) + 1;
    for (let g = 0; g < groupCount; g++) {
      const members = [...phase1.keys()].filter((i) => phase1[i] === g);
      if (members.length <= maxGroupSize) {
        subgroupIndices.push(members);
        continue;
      }
      const euclid = members.map((i) => members.map((j) => Math.hypot(...scores[i].map((v, c) => v - scores[j][c]))));
      const phase2 = densityGroups(euclid, minClusterSize);
      const subCount = Math.max(-1, ...phase2) + 1;
      for (let s = 0; s < subCount; s++) subgroupIndices.push(members.filter((_, k) => phase2[k] === s));
      members.forEach((i, k) => phase2[k] < 0 && subgroupIndices.push([i]));
    }
  }

  // (4) weights per subgroup, (5) the best subgroup
  const subgroups = subgroupIndices.map((indices) => weightedSubgroup(indices, names, scores, affinity, damping));
  const chosen = subgroups.reduce((best, g) => (g.meanScore > best.meanScore ? g : best));
  return {
    scores: chosen.scores,
    chosen,
    subgroups,
    multimodalSpaces,
    constantSpaces: constant.map((i) => input.spaces[i]),
    outlierSpaces: outliers.map((i) => names[i]),
    analysedSpaces: names,
    correlations,
  };
}
