/**
 * One entry point for a candidate clustering, timed: what the `cluster` command and the worker
 * job run. The time is wall-clock of the clustering alone (no file I/O).
 */
import { kMeans } from "./kmeans";
import { spectralClustering } from "./spectral";

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

export function makeCandidateClustering(points: Float32Array | Float64Array, n: number, d: number, options: CandidateOptions): CandidateClustering {
  const started = performance.now();
  if (options.method === "kmeans") {
    const restarts = 10;
    const r = kMeans(points, n, d, { k: options.k, seed: options.seed, restarts });
    return {
      labels: r.labels,
      seconds: (performance.now() - started) / 1000,
      algorithm: "kmeans",
      params: { k: options.k, seed: options.seed, restarts, init: "k-means++", tolerance: 1e-4, iterations: r.iterations, inertia: r.inertia },
    };
  }
  const neighbours = 10;
  const r = spectralClustering(points, n, d, { k: options.k, seed: options.seed, neighbours });
  return {
    labels: r.labels,
    seconds: (performance.now() - started) / 1000,
    algorithm: "spectral",
    params: { k: options.k, seed: options.seed, neighbours, affinity: "symmetric kNN", eigensolver: "lanczos", lanczosDimension: r.lanczosDimension },
  };
}
