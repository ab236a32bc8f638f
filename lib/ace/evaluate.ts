/**
 * The whole label-free evaluation of clusterings across embedding spaces: dip tests of the spaces,
 * the score matrix of one internal measure, paired and pooled scores, and ACE.
 */
import { createRandom } from "@/lib/random";
import { ace, type AceOptions, type AceResult } from "./ace";
import { dipOfSorted, dipPValue, uniformDipNull } from "./dip";
import { firstPrincipalComponent } from "./principal-component";
import { matrixFromRows, pooledScores, scoreSpace, type ClusteringToScore, type EmbeddingSpacePoints, type InternalMeasure, type ScoreMatrix } from "./score-matrix";

export interface SpaceDip {
  readonly space: string;
  readonly dip: number;
  readonly pValue: number;
}

export interface DipScreenOptions {
  readonly seed?: number;
  /** Monte Carlo samples of the uniform null (default 1000) */
  readonly simulations?: number;
}

/** Dip test of each space's projection on its first principal component; one null sample per N. */
export function screenSpaces(spaces: readonly EmbeddingSpacePoints[], options: DipScreenOptions = {}): SpaceDip[] {
  const seed = options.seed ?? 0;
  const simulations = options.simulations ?? 1000;
  const nulls = new Map<number, Float64Array>();
  return spaces.map((space) => {
    const n = space.x.length / space.d;
    const projection = firstPrincipalComponent(space.x, n, space.d, { seed }).projection;
    const dip = dipOfSorted(projection.sort()).dip;
    let sample = nulls.get(n);
    if (!sample) {
      sample = uniformDipNull(n, simulations, createRandom(seed));
      nulls.set(n, sample);
    }
    return { space: space.name, dip, pValue: dipPValue(dip, sample) };
  });
}

export interface LabelFreeEvaluation {
  readonly matrix: ScoreMatrix;
  readonly dips: readonly SpaceDip[];
  /** mean over all spaces */
  readonly pooledAll: readonly number[];
  /** mean over the spaces that pass the dip screening (the paper's pooled score) */
  readonly pooled: readonly number[];
  readonly ace: AceResult;
}

export interface LabelFreeOptions extends AceOptions, DipScreenOptions {}

export function evaluateLabelFree(
  spaces: readonly EmbeddingSpacePoints[],
  clusterings: readonly ClusteringToScore[],
  measure: InternalMeasure,
  options: LabelFreeOptions = {},
): LabelFreeEvaluation {
  const dips = screenSpaces(spaces, options);
  const rows = spaces.map((space) => scoreSpace(space, clusterings, measure, { seed: options.seed }));
  return assemble(matrixFromRows(measure, spaces.map((s) => s.name), clusterings, rows), dips, options);
}

/**
 * The same evaluation one space at a time, for spaces too large to hold together: each is
 * loaded, screened and scored, then let go; `onSpace` hears of each before it is loaded (a worker
 * job reports progress and renews its lease there).
 */
export async function evaluateLabelFreeBySpace(
  spaces: readonly string[],
  loadSpace: (name: string) => Promise<EmbeddingSpacePoints>,
  clusterings: readonly ClusteringToScore[],
  measure: InternalMeasure,
  options: LabelFreeOptions = {},
  onSpace?: (progress: { space: string; done: number; of: number }) => Promise<unknown> | void,
): Promise<LabelFreeEvaluation> {
  const dips: SpaceDip[] = [];
  const rows: number[][] = [];
  for (const [done, name] of spaces.entries()) {
    await onSpace?.({ space: name, done, of: spaces.length });
    const space = await loadSpace(name);
    dips.push(screenSpaces([space], options)[0]);
    rows.push(scoreSpace(space, clusterings, measure, { seed: options.seed }));
  }
  return assemble(matrixFromRows(measure, spaces, clusterings, rows), dips, options);
}

function assemble(matrix: ScoreMatrix, dips: readonly SpaceDip[], options: AceOptions): LabelFreeEvaluation {
  const result = ace({ spaces: matrix.spaces, scores: matrix.scores, dipPValues: dips.map((d) => d.pValue) }, options);
  return { matrix, dips, pooledAll: pooledScores(matrix), pooled: pooledScores(matrix, result.multimodalSpaces), ace: result };
}
