/**
 * Internal measures of every clustering in every embedding space (the ACE paper's pi(rho_m' | Z_m)):
 * the "paired" score of a clustering is the one in its own space, the "pooled" score its mean over
 * spaces (ZeyaWang/ACE eval_pool). Scores are oriented so that higher is better everywhere:
 * Davies-Bouldin (lower is better) enters negated.
 */
import { calinskiHarabasz, daviesBouldin, silhouette, type Labels } from "@/lib/metrics";
import { silhouettesOfClusterings } from "./shared-silhouettes";

/** Up to this N silhouettes are exact (lib/metrics' default); all clusterings share one distance pass. */
const EXACT_SILHOUETTE_LIMIT = 20_000;

export type InternalMeasure = "silhouette" | "davies-bouldin" | "calinski-harabasz";
export const INTERNAL_MEASURES: readonly InternalMeasure[] = ["silhouette", "davies-bouldin", "calinski-harabasz"];

export interface EmbeddingSpacePoints {
  readonly name: string;
  /** N x D row-major */
  readonly x: Float32Array | Float64Array;
  readonly d: number;
}

export interface ClusteringToScore {
  readonly name: string;
  readonly labels: Labels;
  /** the space the clustering was made in, when known */
  readonly space?: string | null;
}

export interface ScoreMatrix {
  readonly measure: InternalMeasure;
  readonly spaces: readonly string[];
  readonly clusterings: readonly string[];
  /** scores[s][c]: clustering c scored in space s, higher is better; NaN when undefined (one cluster) */
  readonly scores: readonly (readonly number[])[];
  /** each clustering in its own space; NaN when its space is unknown */
  readonly paired: readonly number[];
}

export interface ScoreOptions {
  /** seed of silhouette's sample above 20 000 items */
  readonly seed?: number;
}

/** The measure, oriented higher-is-better; NaN when it is undefined (fewer than 2 or more than N - 1 clusters). */
export function orientedScore(measure: InternalMeasure, x: Float32Array | Float64Array, labels: Labels, options: ScoreOptions = {}): number {
  try {
    if (measure === "silhouette") return silhouette(x, labels, { seed: options.seed ?? 0 }).score;
    if (measure === "davies-bouldin") return -daviesBouldin(x, labels);
    return calinskiHarabasz(x, labels);
  } catch (error) {
    if (error instanceof RangeError) return NaN;
    throw error;
  }
}

export function scoreMatrix(
  spaces: readonly EmbeddingSpacePoints[],
  clusterings: readonly ClusteringToScore[],
  measure: InternalMeasure,
  options: ScoreOptions = {},
): ScoreMatrix {
  return matrixFromRows(
    measure,
    spaces.map((s) => s.name),
    clusterings,
    spaces.map((space) => scoreSpace(space, clusterings, measure, options)),
  );
}

/** One row of the matrix: every clustering scored in one space. */
export function scoreSpace(space: EmbeddingSpacePoints, clusterings: readonly ClusteringToScore[], measure: InternalMeasure, options: ScoreOptions = {}): number[] {
  return measure === "silhouette" && space.x.length / space.d <= EXACT_SILHOUETTE_LIMIT
    ? silhouettesOfClusterings(space.x, space.d, clusterings.map((c) => c.labels))
    : clusterings.map((c) => orientedScore(measure, space.x, c.labels, options));
}

/** The matrix from its rows (one per space, in `spaces` order), with each clustering's paired score: the one in its own space. */
export function matrixFromRows(measure: InternalMeasure, spaces: readonly string[], clusterings: readonly ClusteringToScore[], scores: readonly (readonly number[])[]): ScoreMatrix {
  const paired = clusterings.map((c, j) => {
    const s = c.space == null ? -1 : spaces.indexOf(c.space);
    return s >= 0 ? scores[s][j] : NaN;
  });
  return { measure, spaces: [...spaces], clusterings: clusterings.map((c) => c.name), scores, paired };
}

/** Mean over the given spaces (all by default) of each clustering's score, NaNs left out. */
export function pooledScores(matrix: ScoreMatrix, spaces: readonly string[] = matrix.spaces): number[] {
  const rows = spaces.map((name) => {
    const s = matrix.spaces.indexOf(name);
    if (s < 0) throw new RangeError(`no space '${name}' in the score matrix`);
    return matrix.scores[s];
  });
  return matrix.clusterings.map((_, c) => {
    let sum = 0;
    let count = 0;
    for (const row of rows)
      if (!Number.isNaN(row[c])) {
        sum += row[c];
        count++;
      }
    return count > 0 ? sum / count : NaN;
  });
}
