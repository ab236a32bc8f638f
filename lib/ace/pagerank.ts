/**
 * PageRank (Brin & Page 1998) on a weighted directed graph given as a dense adjacency matrix:
 *   r = (1 - d) / n + d (P^T r + (sum of r over dangling nodes) / n),
 * P[i][j] = w_ij / sum_j w_ij, a dangling node (no out-weight) spreading its rank uniformly, as
 * networkx.pagerank. Power iteration until the L1 change is below n * tolerance.
 */
export interface PageRankOptions {
  /** damping factor d (default 0.85) */
  readonly damping?: number;
  readonly tolerance?: number;
  readonly maxIterations?: number;
}

export function pageRank(weights: readonly (readonly number[])[], options: PageRankOptions = {}): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const damping = options.damping ?? 0.85;
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 10_000;
  const outWeight = weights.map((row) => {
    if (row.length !== n) throw new RangeError(`adjacency row of length ${row.length} in a ${n}-node graph`);
    let s = 0;
    for (const w of row) {
      if (w < 0) throw new RangeError("PageRank needs non-negative weights");
      s += w;
    }
    return s;
  });
  let rank = new Array<number>(n).fill(1 / n);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outWeight[i] === 0) dangling += rank[i];
    const next = new Array<number>(n).fill((1 - damping) / n + (damping * dangling) / n);
    for (let i = 0; i < n; i++) {
      if (outWeight[i] === 0) continue;
      const share = (damping * rank[i]) / outWeight[i];
      for (let j = 0; j < n; j++) if (weights[i][j] > 0) next[j] += share * weights[i][j];
    }
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs(next[i] - rank[i]);
    rank = next;
    if (change < n * tolerance) break;
  }
  return rank;
}
