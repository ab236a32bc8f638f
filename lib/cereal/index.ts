/**
 * lib/cereal: the Cereal loop as pure TypeScript (paper "Cereal: Few-Sample Clustering
 * Evaluation", Algorithm 1): sampling designs and acquisition functions, estimators, intervals,
 * the round as a function of (state, surrogate, options), the stop rule, the oracle simulator
 * and AEC. No I/O, no framework: the server and the command line supply data and surrogates.
 */
export type { EmbeddingMatrix, FitOptions, FitProgress, FitReport, LabeledRows, Surrogate, SurrogateFactory } from "./surrogate";
export { deriveSeed, Random } from "./random";
export type { Design, DesignDraw, Draw } from "./designs";
export { drawProportional, drawTopScore, drawUniform, inclusionProbabilities, recordDraws } from "./designs";
export type { Acquisition, JointTable } from "./acquisition";
export {
  ACQUISITIONS,
  clusterMajorityClass,
  jointTable,
  pointwiseMi,
  scoreBald,
  scoreCrossEntropy,
  scoreHardNmi,
  scoreMaxEntropy,
  scoreSoftNmi,
} from "./acquisition";
export type { AcquireInput, AcquireOptions, ScoreMode } from "./acquire";
export { acquireBatch, DEFAULT_DESIGN, designsFor, scorePool } from "./acquire";
export type { CerealProblem, CerealState, TestClustering } from "./problem";
export { addLabels, initialState, unlabeledRows } from "./problem";
export type { Estimator, EstimatorInput } from "./estimators";
export { argmaxEstimator, estimateMetrics, estimatorByName, ESTIMATORS, labelsOnlyEstimator, pseudoLabel } from "./estimators";
export type { Interval, IntervalOptions, IntervalReport } from "./intervals";
export { bootstrapIntervals, drawInput, quantile } from "./intervals";
export type { RoundOptions, RoundResult } from "./round";
export { needsSurrogate, runRound } from "./round";
export type { HistoryPoint, StopDecision, StopRuleOptions } from "./stopRule";
export { fitWidthPowerLaw, stopDecision } from "./stopRule";
export type { ErrorPoint } from "./aec";
export { aec, trapezoid } from "./aec";
export type { RoundRecord, SimulateOptions, SimulationResult, SimulationSummary, StopRecord } from "./simulate";
export { simulate, summarise, trueMetrics } from "./simulate";
export type { GridConfig, GridRun } from "./grid";
export { aecTable, meanAndStandardError, paperGrid, parseJobLines, PAPER_NAMES } from "./grid";
export { createFixedSurrogate, fixedSurrogateFactory, oneHot } from "./fixedSurrogate";
export type { KnnOptions } from "./knnSurrogate";
export { createKnnSurrogate, createKnnSurrogateFactory } from "./knnSurrogate";
export type { LabeledPairs, PairwiseFitOptions, PairwiseFitReport, PairwiseSurrogate, PairwiseSurrogateFactory } from "./pairwise-surrogate";
export { defaultNumOutputs, sameProbability } from "./pairwise-surrogate";
export type { PairDesign, PairDesignOptions, PairDraw, PairDrawGroup, PairDrawRecord, PairPredictions } from "./pair-designs";
export {
  drawAnchorPairs,
  drawPairs,
  drawUncertainPairs,
  drawUniformPairs,
  PAIR_DESIGN_SAMPLING,
  PAIR_DESIGNS,
  pairKey,
  recordPairDraws,
  recordPairGroups,
} from "./pair-designs";
export type { PseudoLabelStrategy } from "./pairwise-estimate";
export { holdOutPairs, pairAccuracy, pairedRows, pairwiseEstimatorInput, PSEUDO_LABEL_STRATEGIES } from "./pairwise-estimate";
export type { PairwiseRoundOptions, PairwiseRoundResult, PairwiseState } from "./pairwise-round";
export { addPairAnswers, initialPairwiseState, runPairwiseRound } from "./pairwise-round";
export type { PairwiseRoundRecord, PairwiseSimulateOptions, PairwiseSimulationResult } from "./pairwise-simulate";
export { simulatePairwise } from "./pairwise-simulate";
export { createPairComponentsSurrogate, createPairComponentsSurrogateFactory, sameComponents } from "./pair-components-surrogate";
