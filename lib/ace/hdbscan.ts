/**
 * HDBSCAN (Campello, Moulavi & Sander 2013; McInnes, Healy & Astels' hdbscan library) on a
 * precomputed distance matrix, small enough for O(n^2) memory (ACE clusters embedding spaces,
 * a handful of points):
 *   1. core distance of a point: distance to its min_samples-th nearest other point (the hdbscan
 *      library's convention);
 *   2. mutual reachability d_m(a, b) = max(core(a), core(b), d(a, b)) and its minimum spanning tree
 *      (Prim, O(n^2));
 *   3. the single-linkage hierarchy of that tree condensed with min_cluster_size: at each split a
 *      side smaller than min_cluster_size is points falling out of the parent cluster at
 *      lambda = 1 / distance, two large sides are two new clusters;
 *   4. excess-of-mass selection: stability(C) = sum over its points of (lambda_p - lambda_birth(C));
 *      a cluster is kept unless its descendants' selected stabilities sum to more; the root is
 *      never selected (allow_single_cluster = False);
 *   5. points outside every selected cluster are outliers, labelled -1.
 * GLOSH outlier scores (Campello et al. 2015) come with the labels:
 *   score(p) = (lambda_max(C) - lambda_p) / lambda_max(C), C the cluster p falls out of and
 *   lambda_max(C) the largest lambda in C's subtree.
 */

export interface HdbscanOptions {
  readonly minClusterSize: number;
  /** defaults to minClusterSize */
  readonly minSamples?: number;
}

export interface HdbscanResult {
  /** cluster 0..k-1 per point, -1 for outliers */
  readonly labels: Int32Array;
  readonly clusterCount: number;
  readonly outlierScores: Float64Array;
}

/** Zero distances (duplicate points) get this distance, so that every lambda is finite. */
const MIN_DISTANCE = 1e-12;

interface CondensedRow {
  parent: number;
  child: number;
  lambda: number;
  size: number;
}

export function hdbscan(distances: readonly (readonly number[])[], options: HdbscanOptions): HdbscanResult {
  const n = distances.length;
  const minClusterSize = options.minClusterSize;
  if (!Number.isInteger(minClusterSize) || minClusterSize < 2) throw new RangeError("min_cluster_size must be an integer >= 2");
  if (n === 0) return { labels: new Int32Array(0), clusterCount: 0, outlierScores: new Float64Array(0) };
  if (n === 1) return { labels: Int32Array.of(-1), clusterCount: 0, outlierScores: Float64Array.of(0) };
  const minSamples = Math.min(options.minSamples ?? minClusterSize, n - 1);

  // 1. core distances
  const core = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const row = Array.from(distances[i]).sort((a, b) => a - b); // row[0] is the point itself
    core[i] = row[minSamples];
  }
  const reach = (i: number, j: number) => Math.max(core[i], core[j], distances[i][j]);

  // 2. Prim's minimum spanning tree of the mutual reachability graph
  const inTree = new Uint8Array(n);
  const best = new Float64Array(n).fill(Infinity);
  const from = new Int32Array(n).fill(-1);
  const edges: { a: number; b: number; w: number }[] = [];
  let current = 0;
  inTree[0] = 1;
  for (let step = 1; step < n; step++) {
    let next = -1;
    for (let j = 0; j < n; j++) {
      if (inTree[j]) continue;
      const w = reach(current, j);
      if (w < best[j]) {
        best[j] = w;
        from[j] = current;
      }
      if (next === -1 || best[j] < best[next]) next = j;
    }
    edges.push({ a: from[next], b: next, w: best[next] });
    inTree[next] = 1;
    current = next;
  }
  edges.sort((x, y) => x.w - y.w);

  // 3a. single-linkage dendrogram: node n + t merges left[t] and right[t] at height[t]
  const parentOf = new Int32Array(2 * n - 1).map((_, i) => i);
  const find = (i: number): number => {
    while (parentOf[i] !== i) {
      parentOf[i] = parentOf[parentOf[i]];
      i = parentOf[i];
    }
    return i;
  };
  const left = new Int32Array(n - 1);
  const right = new Int32Array(n - 1);
  const height = new Float64Array(n - 1);
  const size = new Int32Array(2 * n - 1).fill(1);
  edges.forEach((e, t) => {
    const ra = find(e.a);
    const rb = find(e.b);
    const node = n + t;
    left[t] = ra;
    right[t] = rb;
    height[t] = e.w;
    size[node] = size[ra] + size[rb];
    parentOf[ra] = node;
    parentOf[rb] = node;
  });

  // 3b. condensed tree; clusters are numbered n, n+1, ... in breadth-first order (root = n)
  const leavesOf = (node: number): number[] => {
    const out: number[] = [];
    const stack = [node];
    while (stack.length) {
      const v = stack.pop()!;
      if (v < n) out.push(v);
      else stack.push(left[v - n], right[v - n]);
    }
    return out;
  };
  const rows: CondensedRow[] = [];
  let nextLabel = n + 1;
  const queue: { node: number; label: number }[] = [{ node: 2 * n - 2, label: n }];
  while (queue.length) {
    const { node, label } = queue.shift()!;
    if (node < n) continue;
    const t = node - n;
    const lambda = 1 / Math.max(height[t], MIN_DISTANCE);
    const l = left[t];
    const r = right[t];
    const bigL = size[l] >= minClusterSize;
    const bigR = size[r] >= minClusterSize;
    if (bigL && bigR) {
      for (const child of [l, r]) {
        const childLabel = nextLabel++;
        rows.push({ parent: label, child: childLabel, lambda, size: size[child] });
        queue.push({ node: child, label: childLabel });
      }
    } else {
      for (const [child, big] of [[l, bigL], [r, bigR]] as const) {
        if (big) queue.push({ node: child, label });
        else for (const p of leavesOf(child)) rows.push({ parent: label, child: p, lambda, size: 1 });
      }
    }
  }
  const clusterTotal = nextLabel - n;

  // 4. stabilities and excess-of-mass selection
  const birth = new Float64Array(clusterTotal);
  const childrenOf: number[][] = Array.from({ length: clusterTotal }, () => []);
  for (const row of rows)
    if (row.child >= n) {
      birth[row.child - n] = row.lambda;
      childrenOf[row.parent - n].push(row.child - n);
    }
  const stability = new Float64Array(clusterTotal);
  for (const row of rows) stability[row.parent - n] += (row.lambda - birth[row.parent - n]) * row.size;
  const selected = new Uint8Array(clusterTotal);
  // children have larger labels than their parents: walk labels downwards, root (0) excluded
  for (let c = clusterTotal - 1; c >= 1; c--) {
    const childSum = childrenOf[c].reduce((s, k) => s + stability[k], 0);
    if (childrenOf[c].length > 0 && childSum > stability[c]) {
      stability[c] = childSum;
    } else {
      selected[c] = 1;
      const stack = [...childrenOf[c]];
      while (stack.length) {
        const k = stack.pop()!;
        selected[k] = 0;
        stack.push(...childrenOf[k]);
      }
    }
  }

  // 5. labels: the selected cluster among the ancestors of the cluster a point falls out of
  const clusterParent = new Int32Array(clusterTotal).fill(-1);
  for (const row of rows) if (row.child >= n) clusterParent[row.child - n] = row.parent - n;
  const labelOfCluster = new Int32Array(clusterTotal).fill(-1);
  let clusterCount = 0;
  for (let c = 0; c < clusterTotal; c++) if (selected[c]) labelOfCluster[c] = clusterCount++;
  const labels = new Int32Array(n).fill(-1);
  const pointLambda = new Float64Array(n);
  const pointCluster = new Int32Array(n);
  for (const row of rows)
    if (row.child < n) {
      pointLambda[row.child] = row.lambda;
      pointCluster[row.child] = row.parent - n;
    }
  for (let p = 0; p < n; p++) {
    for (let c = pointCluster[p]; c >= 0; c = clusterParent[c])
      if (selected[c]) {
        labels[p] = labelOfCluster[c];
        break;
      }
  }

  // GLOSH: lambda_max over each cluster's subtree
  const deepest = new Float64Array(clusterTotal);
  for (const row of rows) deepest[row.parent - n] = Math.max(deepest[row.parent - n], row.lambda);
  for (let c = clusterTotal - 1; c >= 1; c--) deepest[clusterParent[c]] = Math.max(deepest[clusterParent[c]], deepest[c]);
  const outlierScores = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const max = deepest[pointCluster[p]];
    outlierScores[p] = max > 0 ? (max - pointLambda[p]) / max : 0;
  }
  return { labels, clusterCount, outlierScores };
}
