/**
 * lib/ace: label-free evaluation of clusterings across embedding spaces (pure; no I/O). The dip
 * test screens spaces, Spearman correlations and HDBSCAN group them, PageRank weights them.
 */
export type { DipResult, DipTestOptions, DipTestResult } from "./dip";
export { dipStatistic, dipOfSorted, dipTest, dipPValue, uniformDipNull } from "./dip";
export type { PrincipalComponent, PrincipalComponentOptions } from "./principal-component";
export { firstPrincipalComponent } from "./principal-component";
export { holmAdjust, holmReject } from "./holm";
export { logGamma, regularizedIncompleteBeta, studentTCdf, studentTSurvival } from "./student-t";
export { averageRanks, pearson, spearman, positiveCorrelationPValue } from "./spearman";
export type { HdbscanOptions, HdbscanResult } from "./hdbscan";
export { hdbscan } from "./hdbscan";
export type { PageRankOptions } from "./pagerank";
export { pageRank } from "./pagerank";
export type { InternalMeasure, EmbeddingSpacePoints, ClusteringToScore, ScoreMatrix, ScoreOptions } from "./score-matrix";
export { INTERNAL_MEASURES, orientedScore, scoreMatrix, pooledScores } from "./score-matrix";
export type { AceInput, AceOptions, AceResult, AceSubgroup } from "./ace";
export { ace } from "./ace";
export type { SpaceDip, DipScreenOptions, LabelFreeEvaluation, LabelFreeOptions } from "./evaluate";
export { screenSpaces, evaluateLabelFree, evaluateLabelFreeBySpace } from "./evaluate";
