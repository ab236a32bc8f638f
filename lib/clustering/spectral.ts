/**
 * Spectral clustering after Ng, Jordan & Weiss (2002) on a sparse kNN graph: A the symmetric
 * k-nearest-neighbour affinity, M = D^{-1/2} A D^{-1/2} (whose top eigenvectors are the bottom
 * ones of the normalized Laplacian I - M), the k leading eigenvectors of M by Lanczos (no dense
 * N x N matrix; memory O(N (k_nn + m)) with m <= max(20 k, 200) Lanczos vectors), each row of the
 * N x k embedding scaled to unit length, then k-means on the rows.
 *
 * M is block diagonal over the graph's connected components and its eigenvalue 1 has one copy per
 * component, a multiplicity a single-vector Lanczos run cannot resolve (its Krylov space holds one
 * vector of each eigenspace). So each component is solved on its own (there eigenvalue 1 is
 * simple, Perron-Frobenius) and the k largest eigenpairs over all components are kept.
 */
import { kMeans } from "./kmeans";
import { nearestNeighbours, symmetricKnnGraph, type SparseSymmetric } from "./knn-graph";

/**
 * The largest N spectral clustering accepts: its exact kNN search costs about N^2 D / 2
 * multiply-adds (16 s at 20 000 items of D = 64 on the shared 2-core machine, README.md) and
 * grows 4x per doubling, so 10^5 items would take minutes and 10^6 hours.
 */
export const SPECTRAL_MAX_ITEMS = 20_000;
import { largestEigenpairs } from "./lanczos";

export interface SpectralOptions {
  readonly k: number;
  readonly seed?: number;
  /** neighbours per point in the graph (default 10, scikit-learn's n_neighbors) */
  readonly neighbours?: number;
  /** k-means restarts on the embedding (default 10) */
  readonly restarts?: number;
}

export interface SpectralResult {
  readonly labels: Int32Array;
  /** the k leading eigenvalues of D^{-1/2} A D^{-1/2}, descending */
  readonly eigenvalues: Float64Array;
  /** connected components of the kNN graph */
  readonly components: number;
  readonly lanczosDimension: number;
  readonly converged: boolean;
}

/** Connected components: the members of each, in increasing index order. */
export function connectedComponents(graph: SparseSymmetric): Int32Array[] {
  const { n, rowStart, cols } = graph;
  const seen = new Uint8Array(n);
  const components: Int32Array[] = [];
  for (let start = 0; start < n; start++) {
    if (seen[start]) continue;
    const members = [start];
    seen[start] = 1;
    for (let head = 0; head < members.length; head++) {
      const i = members[head];
      for (let p = rowStart[i]; p < rowStart[i + 1]; p++)
        if (!seen[cols[p]]) {
          seen[cols[p]] = 1;
          members.push(cols[p]);
        }
    }
    components.push(Int32Array.from(members).sort());
  }
  return components;
}

/** y = D^{-1/2} A D^{-1/2} x restricted to one component (x, y indexed by position in `members`). */
function normalizedAffinity(graph: SparseSymmetric, members: Int32Array): (x: Float64Array, y: Float64Array) => void {
  const { rowStart, cols, values } = graph;
  const position = new Map<number, number>();
  members.forEach((i, p) => position.set(i, p));
  const size = members.length;
  const localStart = new Int32Array(size + 1);
  const localCols: number[] = [];
  const localValues: number[] = [];
  const scale = new Float64Array(size);
  members.forEach((i, p) => {
    let degree = 0;
    for (let e = rowStart[i]; e < rowStart[i + 1]; e++) {
      localCols.push(position.get(cols[e])!);
      localValues.push(values[e]);
      degree += values[e];
    }
    localStart[p + 1] = localCols.length;
    scale[p] = degree > 0 ? 1 / Math.sqrt(degree) : 0;
  });
  return (x, y) => {
    for (let i = 0; i < size; i++) {
      let s = 0;
      for (let e = localStart[i]; e < localStart[i + 1]; e++) s += localValues[e] * scale[localCols[e]] * x[localCols[e]];
      y[i] = scale[i] * s;
    }
  };
}

interface ComponentEigenpair {
  readonly value: number;
  readonly members: Int32Array;
  readonly vector: Float64Array;
}

/** The k largest eigenpairs of M over all components, each vector embedded in R^N. */
function leadingEigenpairs(graph: SparseSymmetric, k: number, seed: number): { values: Float64Array; vectors: Float64Array; dimension: number; converged: boolean } {
  const pairs: ComponentEigenpair[] = [];
  let dimension = 0;
  let converged = true;
  for (const members of connectedComponents(graph)) {
    const size = members.length;
    // every point has a neighbour, so a component has at least two points
    const wanted = Math.min(k, size);
    const eigen = largestEigenpairs(normalizedAffinity(graph, members), size, wanted, { seed });
    dimension = Math.max(dimension, eigen.dimension);
    converged &&= eigen.converged;
    for (let c = 0; c < wanted; c++) pairs.push({ value: eigen.values[c], members, vector: eigen.vectors.subarray(c * size, (c + 1) * size) });
  }
  pairs.sort((a, b) => b.value - a.value);
  const n = graph.n;
  const values = new Float64Array(k);
  const vectors = new Float64Array(k * n);
  pairs.slice(0, k).forEach((pair, c) => {
    values[c] = pair.value;
    pair.members.forEach((i, p) => (vectors[c * n + i] = pair.vector[p]));
  });
  return { values, vectors, dimension, converged };
}

export interface SpectralEmbedding {
  /** N x k, rows of unit length */
  readonly embedding: Float64Array;
  readonly eigenvalues: Float64Array;
  readonly components: number;
  readonly lanczosDimension: number;
  readonly converged: boolean;
}

/** Step 1: the symmetric kNN graph of the points (the O(N^2 D) part). */
export function spectralGraph(points: Float32Array | Float64Array, n: number, d: number, options: SpectralOptions): SparseSymmetric {
  const { k } = options;
  if (points.length !== n * d) throw new RangeError(`points of length ${points.length} are not an [${n}, ${d}] matrix`);
  if (!Number.isInteger(k) || k < 1 || k >= n) throw new RangeError(`k must be an integer in 1..${n - 1} (got ${k})`);
  const neighbours = Math.min(options.neighbours ?? 10, n - 1);
  return symmetricKnnGraph(nearestNeighbours(points, n, d, neighbours), n, neighbours);
}

/** Step 2: the k leading eigenvectors of D^{-1/2} A D^{-1/2}, rows normalized to unit length (NJW step 4). */
export function spectralEmbedding(graph: SparseSymmetric, k: number, seed = 0): SpectralEmbedding {
  const n = graph.n;
  const eigen = leadingEigenpairs(graph, k, seed);
  const embedding = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let c = 0; c < k; c++) {
      const v = eigen.vectors[c * n + i];
      embedding[i * k + c] = v;
      s += v * v;
    }
    const norm = Math.sqrt(s);
    if (norm > 0) for (let c = 0; c < k; c++) embedding[i * k + c] /= norm;
  }
  return { embedding, eigenvalues: eigen.values, components: connectedComponents(graph).length, lanczosDimension: eigen.dimension, converged: eigen.converged };
}

/** The three steps at once: graph, embedding, k-means on the embedding's rows. */
export function spectralClustering(points: Float32Array | Float64Array, n: number, d: number, options: SpectralOptions): SpectralResult {
  const { k } = options;
  const seed = options.seed ?? 0;
  const e = spectralEmbedding(spectralGraph(points, n, d, options), k, seed);
  const { labels } = kMeans(e.embedding, n, k, { k, seed, restarts: options.restarts ?? 10 });
  return { labels, eigenvalues: e.eigenvalues, components: e.components, lanczosDimension: e.lanczosDimension, converged: e.converged };
}
