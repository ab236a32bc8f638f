/**
 * One pairwise round (paper section 5.3 on Algorithm 1): fit the pairwise surrogate (MCL) on the
 * answered pairs, PAIRWISE_MEMBERS times with other seeds, pseudo-label every item with each fit's
 * argmax cluster id, estimate every metric of every clustering as the mean of the fits' estimates
 * moved toward their consensus's as far as the answered pairs' FMI says (fit-consensus.ts; with
 * intervals), report how well the model that drew the newest pairs predicted their answers,
 * and draw the next pairs with the named pair design from the first fit. Answering them is the
 * caller's business; "unsure" answers and skips never reach the state, so they count as skips.
 */
import { METRIC_KEYS, type MetricKey, type MetricValues } from "@/lib/metrics";
import { argmaxEstimator, estimateMetrics, pseudoLabel } from "../method/estimators";
import { bootstrapIntervals, type Interval, type IntervalReport } from "../method/intervals";
import { drawPairs, isUniformPairDraw, pairKey, recordPairGroups, type PairDesign, type PairDesignOptions, type PairDrawRecord } from "./pair-designs";
import { drawingModelsInformative, pairCountIntervals, stagesByRound } from "./pair-count-ppi";
import { addAligned, towardConsensus } from "./fit-consensus";
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
  /**
   * share of answered pairs left out of training (default 0: every answer trains). 0.1 held out
   * pairs to measure accuracy until issue #25's last change; kept to reproduce those runs.
   */
  readonly holdOut?: number;
  /** fits per round, each with its own seed; the estimate is the mean of theirs moved toward their consensus's (default PAIRWISE_MEMBERS) */
  readonly members?: number;
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
  /** EstimatedPairwiseRound.uninformed */
  readonly uninformed: boolean | null;
  readonly fit: PairwiseFitReport | null;
  /** p(.|x) of every row 0..n-1, [n x numOutputs]; null without answered pairs */
  readonly proba: Float32Array | null;
  readonly numOutputs: number;
  /** argmax cluster id of every row; null without answered pairs */
  readonly pseudoLabels: Int32Array | null;
  /** the rows the estimate was computed on (all rows, or the thresholded subset) */
  readonly estimatedRows: Int32Array;
  /** pairAccuracy of FittedPairwiseRound */
  readonly pairAccuracy: number | null;
  readonly heldOut: number;
  readonly next: PairDrawRecord[];
  readonly roundSeconds: number;
}

/**
 * Fits per pairwise round (issue #25). Much of the argmax estimate's error on the demo is the fit's
 * seed, and the mean of several fits' estimates cuts it: NMI AEC per 1,000 random-pair answers over
 * 100 seeds (bench/pair-ppi.ts, MEASUREMENTS.md "Five fits"), one fit / five: demo 0.0202 / 0.0161,
 * digits 0.0322 / 0.0297. A round costs about this many times one fit.
 */
export const PAIRWISE_MEMBERS = 5;

/** The pairwise fit step's output: the first fit's p(.|x) of every row, the other fits' estimates. */
export interface FittedPairwiseRound {
  /** the fits' report: training seconds and steps summed over the fits, backend and final loss the first's */
  readonly fit: PairwiseFitReport | null;
  /** the first fit's p(.|x), [n x numOutputs] (what the designs and the stored results read); null without answered pairs */
  readonly proba: Float32Array | null;
  readonly numOutputs: number;
  /**
   * the argmax estimate of every clustering by each fit after the first (their p(.|x) is not kept:
   * cluster ids of different fits do not correspond, and at 10^6 items each is 80 MB)
   */
  readonly memberEstimates: readonly Record<string, MetricValues>[];
  /** the argmax estimate of every clustering by the fits' consensus (fit-consensus.ts addAligned); null with one fit */
  readonly consensusEstimate: Record<string, MetricValues> | null;
  /**
   * the share of the newest stage's uniform pairs whose answer the model that drew them
   * (state.stageModels) predicted, P_ij > 0.5 for "same": accuracy on answers it never saw; null
   * while no answered stage has a drawing model (round 0)
   */
  readonly pairAccuracy: number | null;
  /** answered pairs left out of training (options.holdOut) */
  readonly heldOut: number;
}

/** The pairwise estimate step's output. */
export interface EstimatedPairwiseRound {
  readonly estimate: Record<string, MetricValues>;
  readonly intervals: IntervalReport | null;
  readonly estimatedRows: Int32Array;
  /**
   * true: the models that drew the answered stages have not been shown to predict their answers
   * better than chance (drawingModelsInformative not true; always so in round 0), so the NMI, AMI
   * and V-measure intervals span their whole range; null where the pair counts did not set the
   * intervals (none asked, or no stage models)
   */
  readonly uninformed: boolean | null;
}

/**
 * Step 1: fit the pairwise surrogate on the answered pairs (options.members times, fit m >= 1 with
 * the seed deriveSeed(seed, "ensemble", m)), predict every row; the fits after the first are
 * estimated at once and their p(.|x) dropped.
 */
export async function fitPairwiseRound(state: PairwiseState, surrogate: PairwiseSurrogate, options: PairwiseRoundOptions): Promise<FittedPairwiseRound> {
  const { problem, pairs, round } = state;
  const n = problem.embeddings.n;
  const k = surrogate.numOutputs;
  const members = options.members ?? PAIRWISE_MEMBERS;
  if (!(Number.isInteger(members) && members >= 1)) throw new Error(`members must be a whole number >= 1, got ${members}`);
  if (pairs.a.length === 0) return { fit: null, proba: null, numOutputs: k, memberEstimates: [], consensusEstimate: null, pairAccuracy: null, heldOut: 0 };
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const fitMember = async (seed: number, onProgress?: (progress: FitProgress) => void) => {
    const split = holdOutPairs(pairs, options.holdOut ?? 0, Random.from(seed, "hold-out", round));
    const fit = await surrogate.fit(split.train, { seed: deriveSeed(seed, "pairwise-fit", round) }, onProgress);
    return { fit, heldOut: split.heldOut.a.length, proba: await surrogate.predictProba(all) };
  };
  // progress runs over all the fits: member m's steps count after the m fits before it
  const progress = (m: number) =>
    options.onProgress && ((p: FitProgress) => options.onProgress!({ step: m * p.total + p.step, total: members * p.total }));
  const first = await fitMember(options.seed, progress(0));
  const fit = { ...first.fit };
  const memberEstimates: Record<string, MetricValues>[] = [];
  // the fits' p(.|x) summed with their ids renamed to the first fit's: one [n x k] array, whatever the count
  const consensus = members > 1 ? Float32Array.from(first.proba) : null;
  for (let m = 1; m < members; m++) {
    const member = await fitMember(deriveSeed(options.seed, "ensemble", m), progress(m));
    fit.trainSeconds += member.fit.trainSeconds;
    fit.steps += member.fit.steps;
    memberEstimates.push(estimateMetrics(estimatorInput(state, member.proba, k, options), problem.clusterings, argmaxEstimator));
    addAligned(consensus!, first.proba, member.proba, k);
  }
  if (consensus) for (let j = 0; j < consensus.length; j++) consensus[j] /= members;
  const consensusEstimate = consensus && estimateMetrics(estimatorInput(state, consensus, k, options), problem.clusterings, argmaxEstimator);
  return { fit, proba: first.proba, numOutputs: k, memberEstimates, consensusEstimate, pairAccuracy: newestStageAccuracy(state, k), heldOut: first.heldOut };
}

const estimatorInput = (state: PairwiseState, proba: Float32Array, k: number, options: PairwiseRoundOptions) =>
  pairwiseEstimatorInput(proba, k, state.problem.embeddings.n, options.strategy, pairedRows(state.pairs, state.problem.embeddings.n), options.threshold);

/**
 * FittedPairwiseRound.pairAccuracy: the uniform pairs of the newest answered stage that has a drawing
 * model, under that model (the simulator's stage r is drawn by round r - 1; the app's by an earlier round)
 */
function newestStageAccuracy(state: PairwiseState, k: number): number | null {
  const answered = new Set(state.draws.filter(isUniformPairDraw).map((d) => d.round));
  const stage = Math.max(-1, ...[...(state.stageModels?.keys() ?? [])].filter((s) => answered.has(s)));
  const drawing = state.stageModels?.get(stage)?.[0];
  if (!drawing) return null;
  const rows = state.draws.flatMap((d, i) => (d.round === stage && isUniformPairDraw(d) ? [i] : []));
  const pick = <T extends Int32Array | Uint8Array>(from: T, make: (n: number) => T): T => {
    const out = make(rows.length);
    rows.forEach((r, i) => (out[i] = from[r]));
    return out;
  };
  return pairAccuracy(drawing, k, {
    a: pick(state.pairs.a, (n) => new Int32Array(n)),
    b: pick(state.pairs.b, (n) => new Int32Array(n)),
    same: pick(state.pairs.same, (n) => new Uint8Array(n)),
  });
}

/**
 * Step 2: every metric of every clustering from the rows' argmax cluster ids, the mean over the
 * fits, moved toward the fits' consensus as far as the answered stages' FMI says where there are
 * stage models (fit-consensus.ts towardConsensus), with intervals: the bootstrap's (of the first
 * fit), or, with stage models, the pair counts' (pairCountIntervals); either is widened to hold the
 * estimate.
 */
export function estimatePairwiseRound(state: PairwiseState, fitted: FittedPairwiseRound, options: PairwiseRoundOptions): EstimatedPairwiseRound {
  const { problem, pairs, round } = state;
  if (!fitted.proba) return { estimate: {}, intervals: null, estimatedRows: new Int32Array(0), uninformed: null };
  const input = estimatorInput(state, fitted.proba, fitted.numOutputs, options);
  const mean = meanEstimate([estimateMetrics(input, problem.clusterings, argmaxEstimator), ...fitted.memberEstimates]);
  const stages = state.stageModels ? stagesByRound(pairs, state.draws, state.stageModels, fitted.numOutputs, state.stageResponse) : null;
  const { consensusEstimate } = fitted;
  const estimate =
    consensusEstimate && stages
      ? Object.fromEntries(problem.clusterings.map((c) => [c.name, towardConsensus(mean[c.name], consensusEstimate[c.name], c.assignments, stages)]))
      : mean;
  const bootstrap =
    options.intervals === false
      ? null
      : bootstrapIntervals(input, problem.clusterings, argmaxEstimator, { ...options.intervals, seed: deriveSeed(options.seed, "intervals", round) });
  const uninformed = bootstrap && stages && drawingModelsInformative(stages) !== true;
  const intervals = bootstrap && stages ? pairCountIntervals(bootstrap, estimate, problem.clusterings, stages, uninformed === true) : bootstrap;
  return { estimate, intervals: intervals && holding(intervals, estimate), estimatedRows: input.unlabeled, uninformed };
}

/** per clustering, f of each metric */
function byMetric<T>(clusterings: readonly string[], f: (c: string, k: MetricKey) => T): Record<string, Record<MetricKey, T>> {
  return Object.fromEntries(clusterings.map((c) => [c, Object.fromEntries(METRIC_KEYS.map((k) => [k, f(c, k)])) as Record<MetricKey, T>]));
}

/** each metric's mean over the fits' estimates, per clustering */
function meanEstimate(estimates: readonly Record<string, MetricValues>[]): Record<string, MetricValues> {
  return byMetric(Object.keys(estimates[0]), (c, k) => estimates.reduce((sum, e) => sum + e[c][k], 0) / estimates.length);
}

/** the report with every interval widened to hold the point estimate (the bootstrap's are the first fit's) */
function holding(report: IntervalReport, estimate: Record<string, MetricValues>): IntervalReport {
  const { interval } = report;
  return { ...report, interval: byMetric(Object.keys(interval), (c, k): Interval => [Math.min(interval[c][k][0], estimate[c][k]), Math.max(interval[c][k][1], estimate[c][k])]) };
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
