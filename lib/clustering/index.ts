/**
 * lib/clustering: candidate clusterings made in the app (pure; no I/O): k-means and spectral
 * clustering on a sparse kNN graph.
 */
export type { KMeansOptions, KMeansResult } from "./kmeans";
export { kMeans, kMeansPlusPlus } from "./kmeans";
export type { SparseSymmetric } from "./knn-graph";
export { nearestNeighbours, symmetricKnnGraph } from "./knn-graph";
export type { EigenPairs, LanczosOptions } from "./lanczos";
export { largestEigenpairs, tridiagonalEigen } from "./lanczos";
export type { SpectralOptions, SpectralResult, SpectralEmbedding } from "./spectral";
export { spectralClustering, spectralGraph, spectralEmbedding, connectedComponents, SPECTRAL_MAX_ITEMS } from "./spectral";
export type { ClusteringMethod, CandidateClustering, CandidateOptions } from "./candidate";
export { CLUSTERING_METHODS, makeCandidateClustering } from "./candidate";
