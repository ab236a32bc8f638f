/**
 * One pairwise round (paper section 5.3 on Algorithm 1): fit the pairwise surrogate (MCL) on the
 * answered pairs minus a held-out share, pseudo-label every item with its argmax cluster id,
 * estimate every metric of every clustering (with intervals), report the held-out pairwise
 * accuracy, and draw the next pairs with the named pair design. Answering them is the caller's
 * business; "unsure" answers and skips never reach the state, so they count as skips.
 */
import type { MetricValues } from "@/lib/metrics";
import { argmaxEstimator, estimateMetrics, pseudoLabel } from "../method/estimators";
import { bootstrapIntervals, type IntervalReport } from "../method/intervals";
import { drawPairs, pairKey, recordPairGroups, type PairDesign, type PairDesignOptions, type PairDrawRecord } from "./pair-designs";
import { pairCountIntervals, stagesByRound } from "./pair-count-ppi";
import { holdOutPairs, pairAccuracy, pairedRows, pairwiseEstimatorInput, type PseudoLabelStrategy } from "./pairwise-estimate";
import type { LabeledPairs, PairwiseFitReport, PairwiseSurrogate } from "./pair-surrogate";
import type { CerealProblem } from "../method/problem";
import { deriveSeed, Random } from "../../random/named-streams";
import type { FitProgress } from "../method/surrogate";

export interface PairwiseState {
  readonly problem: CerealProblem;
  /** answered pairs so far (same or different), in draw order */
  readonly pairs: LabeledPairs;
  /** how every answered pair was drawn, aligned with pairs */
  readonly draws: readonly PairDrawRecord[];
  /** the round to run next: it estimates from batches 0..round and draws batch round + 1 */
  readonly round: number;
  /**
   * The p(.|x) of the model(s) fixed before each stage (a draw record's `round`) was drawn, and
   * each stage's answered share (absent: 1). With them the intervals of NMI, AMI, V, ARI and FMI
   * come from the prediction-powered pair counts (pair-count-ppi.ts; the uncertain and anchor
   * designs' stages correct with their uniform share), which hold the truth, instead of the
   * bootstrap, which misses the surrogate's bias.
   */
  readonly stageModels?: ReadonlyMap<number, readonly Float32Array[]>;
  readonly stageResponse?: ReadonlyMap<number, number>;
}

/** The state after the answered pairs of one batch are in (unsure pairs left out by the caller). */
export function addPairAnswers(state: PairwiseState, draws: readonly PairDrawRecord[], same: Uint8Array): PairwiseState {
  if (draws.length !== same.length) throw new Error(`${draws.length} pairs but ${same.length} answers`);
  const concat = <T extends Int32Array | Uint8Array>(old: T, add: ArrayLike<number>, make: (n: number) => T): T => {
    const out = make(old.length + add.length);
    out.set(old);
    out.set(add, old.length);
    return out;
  };
  return {
    ...state,
    pairs: {
      a: concat(state.pairs.a, Int32Array.from(draws, (d) => d.row), (n) => new Int32Array(n)),
      b: concat(state.pairs.b, Int32Array.from(draws, (d) => d.rowB), (n) => new Int32Array(n)),
      same: concat(state.pairs.same, same, (n) => new Uint8Array(n)),
    },
    draws: [...state.draws, ...draws],
    round: state.round + 1,
  };
}

/** The state after the seed pairs are answered: round 0 runs next. */
export function initialPairwiseState(problem: CerealProblem, seedDraws: readonly PairDrawRecord[], same: Uint8Array): PairwiseState {
  const empty: PairwiseState = { problem, pairs: { a: new Int32Array(0), b: new Int32Array(0), same: new Uint8Array(0) }, draws: [], round: -1 };
  return addPairAnswers(empty, seedDraws, same);
}

export interface PairwiseRoundOptions {
  readonly design: PairDesign;
  readonly strategy: PseudoLabelStrategy;
  /** thresholded: the max p an item needs to be estimated on (default 0.5) */
  readonly threshold?: number;
  /** share of answered pairs held out of training to measure pairwise accuracy (default 0.1) */
  readonly holdOut?: number;
  /** pairs in the next batch; 0 draws nothing (the last round) */
  readonly batch: number;
  readonly seed: number;
  /** pairKey()s never to draw besides the answered ones (pairs handed out, unsure answers) */
  readonly exclude?: ReadonlySet<string>;
  readonly designOptions?: PairDesignOptions;
  readonly intervals?: { readonly draws?: number; readonly level?: number } | false;
  readonly onProgress?: (progress: FitProgress) => void;
}

export interface PairwiseRoundResult {
  readonly round: number;
  /** answered pairs the round used (held-out ones included) */
  readonly nLabels: number;
  /** estimate[clustering][metric]; empty when no pair is answered yet */
  readonly estimate: Record<string, MetricValues>;
  readonly intervals: IntervalReport | null;
  readonly fit: PairwiseFitReport | null;
  /** p(.|x) of every row 0..n-1, [n x numOutputs]; null without answered pairs */
  readonly proba: Float32Array | null;
  readonly numOutputs: number;
  /** argmax cluster id of every row; null without answered pairs */
  readonly pseudoLabels: Int32Array | null;
  /** the rows the estimate was computed on (all rows, or the thresholded subset) */
  readonly estimatedRows: Int32Array;
  /** the surrogate's accuracy on the held-out pairs; null when none was held out */
  readonly pairAccuracy: number | null;
  readonly heldOut: number;
  readonly next: PairDrawRecord[];
  readonly roundSeconds: number;
}

/** The pairwise fit step's output: p(.|x) of every row and the held-out pairs' accuracy. */
export interface FittedPairwiseRound {
  readonly fit: PairwiseFitReport | null;
  /** [n x numOutputs]; null without answered pairs */
  readonly proba: Float32Array | null;
  readonly numOutputs: number;
  readonly pairAccuracy: number | null;
  readonly heldOut: number;
}

/** The pairwise estimate step's output. */
export interface EstimatedPairwiseRound {
  readonly estimate: Record<string, MetricValues>;
  readonly intervals: IntervalReport | null;
  readonly estimatedRows: Int32Array;
}

/** Step 1: fit the pairwise surrogate on the answered pairs minus a held-out share, predict every row. */
export async function fitPairwiseRound(state: PairwiseState, surrogate: PairwiseSurrogate, options: PairwiseRoundOptions): Promise<FittedPairwiseRound> {
  const { problem, pairs, round } = state;
  const n = problem.embeddings.n;
  const k = surrogate.numOutputs;
  if (pairs.a.length === 0) return { fit: null, proba: null, numOutputs: k, pairAccuracy: null, heldOut: 0 };
  const split = holdOutPairs(pairs, options.holdOut ?? 0.1, Random.from(options.seed, "hold-out", round));
  const heldOut = split.heldOut.a.length;
  const fit = await surrogate.fit(split.train, { seed: deriveSeed(options.seed, "pairwise-fit", round) }, options.onProgress);
  const proba = await surrogate.predictProba(Int32Array.from({ length: n }, (_, i) => i));
  return { fit, proba, numOutputs: k, pairAccuracy: heldOut > 0 ? pairAccuracy(proba, k, split.heldOut) : null, heldOut };
}

/**
 * Step 2: every metric of every clustering from the rows' argmax cluster ids, with intervals: the
 * bootstrap's, or, with stage models, the pair counts' (pairCountIntervals).
 */
export function estimatePairwiseRound(state: PairwiseState, fitted: FittedPairwiseRound, options: PairwiseRoundOptions): EstimatedPairwiseRound {
  const { problem, pairs, round } = state;
  if (!fitted.proba) return { estimate: {}, intervals: null, estimatedRows: new Int32Array(0) };
  const n = problem.embeddings.n;
  const input = pairwiseEstimatorInput(fitted.proba, fitted.numOutputs, n, options.strategy, pairedRows(pairs, n), options.threshold);
  const estimate = estimateMetrics(input, problem.clusterings, argmaxEstimator);
  const bootstrap =
    options.intervals === false
      ? null
      : bootstrapIntervals(input, problem.clusterings, argmaxEstimator, { ...options.intervals, seed: deriveSeed(options.seed, "intervals", round) });
  const intervals =
    bootstrap && state.stageModels
      ? pairCountIntervals(bootstrap, estimate, problem.clusterings, stagesByRound(pairs, state.draws, state.stageModels, fitted.numOutputs, state.stageResponse))
      : bootstrap;
  return { estimate, intervals, estimatedRows: input.unlabeled };
}

/** Step 3: draw the next pairs with the named pair design, never one answered or excluded. */
export function acquirePairs(state: PairwiseState, fitted: FittedPairwiseRound, options: PairwiseRoundOptions): PairDrawRecord[] {
  const { problem, pairs, round } = state;
  if (options.batch <= 0) return [];
  const taken = new Set(options.exclude ?? []);
  for (let i = 0; i < pairs.a.length; i++) taken.add(pairKey(pairs.a[i], pairs.b[i]));
  for (const d of state.draws) taken.add(pairKey(d.row, d.rowB));
  const groups = drawPairs(
    options.design,
    problem.embeddings.n,
    options.batch,
    Random.from(options.seed, "pairs", round + 1),
    taken,
    fitted.proba && { proba: fitted.proba, k: fitted.numOutputs },
    options.designOptions,
  );
  return recordPairGroups(groups, round + 1, state.draws.length);
}

/** The three steps in order (the simulator's round; the app's worker times each step itself). */
export async function runPairwiseRound(state: PairwiseState, surrogate: PairwiseSurrogate, options: PairwiseRoundOptions): Promise<PairwiseRoundResult> {
  const started = performance.now();
  const fitted = await fitPairwiseRound(state, surrogate, options);
  const estimated = estimatePairwiseRound(state, fitted, options);
  const next = acquirePairs(state, fitted, options);
  return pairwiseRoundResult(state, fitted, estimated, next, (performance.now() - started) / 1000);
}

/** The steps' outputs as one PairwiseRoundResult. */
export function pairwiseRoundResult(
  state: PairwiseState,
  fitted: FittedPairwiseRound,
  estimated: EstimatedPairwiseRound,
  next: PairDrawRecord[],
  roundSeconds: number,
): PairwiseRoundResult {
  return {
    round: state.round,
    nLabels: state.pairs.a.length,
    ...estimated,
    ...fitted,
    pseudoLabels: fitted.proba && pseudoLabel(fitted.proba, fitted.numOutputs),
    next,
    roundSeconds,
  };
}
