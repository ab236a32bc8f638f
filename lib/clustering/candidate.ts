/**
 * One entry point for a candidate clustering, timed: what the `cluster` command and the worker
 * job run. The time is wall-clock of the clustering alone (no file I/O, no checkpoint). The
 * optional checkpoint is awaited between the steps of spectral clustering, so a worker can renew
 * its job lease between long synchronous stretches.
 */
import { kMeans } from "./kmeans";
import { SPECTRAL_MAX_ITEMS, spectralEmbedding, spectralGraph } from "./spectral";

export type ClusteringMethod = "kmeans" | "spectral";
export const CLUSTERING_METHODS: readonly ClusteringMethod[] = ["kmeans", "spectral"];

export interface CandidateOptions {
  readonly method: ClusteringMethod;
  readonly k: number;
  readonly seed: number;
}

export interface CandidateClustering {
  readonly labels: Int32Array;
  readonly seconds: number;
  /** the algorithm and every parameter that fixes its result */
  readonly algorithm: string;
  readonly params: Record<string, number | string>;
}

export async function makeCandidateClustering(
  points: Float32Array | Float64Array,
  n: number,
  d: number,
  options: CandidateOptions,
  checkpoint: (stage: string) => Promise<void> = async () => {},
): Promise<CandidateClustering> {
  if (options.method === "spectral" && n > SPECTRAL_MAX_ITEMS)
    throw new RangeError(`spectral clustering is limited to ${SPECTRAL_MAX_ITEMS} items (its kNN search grows as N^2); this data has ${n}: use k-means`);
  let seconds = 0;
  const timed = <T>(step: () => T): T => {
    const started = performance.now();
    const value = step();
    seconds += (performance.now() - started) / 1000;
    return value;
  };
  const restarts = 10;
  if (options.method === "kmeans") {
    const r = timed(() => kMeans(points, n, d, { k: options.k, seed: options.seed, restarts }));
    return {
      labels: r.labels,
      seconds,
      algorithm: "kmeans",
      params: { k: options.k, seed: options.seed, restarts, init: "k-means++", tolerance: 1e-4, iterations: r.iterations, inertia: r.inertia },
    };
  }
  const neighbours = 10;
  const graph = timed(() => spectralGraph(points, n, d, { k: options.k, neighbours }));
  await checkpoint("eigenvectors");
  const e = timed(() => spectralEmbedding(graph, options.k, options.seed));
  await checkpoint("k-means");
  const { labels } = timed(() => kMeans(e.embedding, n, options.k, { k: options.k, seed: options.seed, restarts }));
  return {
    labels,
    seconds,
    algorithm: "spectral",
    params: { k: options.k, seed: options.seed, neighbours, affinity: "symmetric kNN", eigensolver: "lanczos", lanczosDimension: e.lanczosDimension, restarts },
  };
}
