/**
 * One round of Algorithm 1 as a function of (state, surrogate, options): fit the surrogate on the
 * labels (+ the unlabeled rows for FixMatch), pseudo-label the unlabeled rows, estimate every
 * metric of every clustering with intervals, and acquire the next batch. Labelling the batch is
 * the caller's business (the oracle in the simulator, annotators in the app).
 */
import type { MetricValues } from "@/lib/metrics";
import { acquireBatch, DEFAULT_DESIGN, meanScores, type ScoreMode } from "./acquire";
import { expectedCalibrationError, fitTemperature, temperatureScale } from "./calibration";
import type { Acquisition } from "./acquisition";
import { inclusionProbabilities, recordDraws, type Design, type Draw } from "./designs";
import { estimateMetrics, pseudoLabel, type Estimator, type EstimatorInput } from "./estimators";
import { bootstrapIntervals, type IntervalReport } from "./intervals";
import { EMPTY_RECORD, extendRecord, type OutOfSampleRecord } from "./out-of-sample";
import type { Ranking } from "./stages";
import { positionsIn, unlabeledRows, type CerealState } from "./problem";
import { deriveSeed, Random } from "../../random/named-streams";
import type { FitProgress, FitReport, Surrogate } from "./surrogate";
import { CALIBRATION_MIN_ROWS, RESIDUAL_MIN_ACCURACY, surrogateHealth, type HealthOptions, type SurrogateHealth } from "./surrogate-health";

export interface RoundOptions {
  readonly acquisition: Acquisition;
  readonly estimator: Estimator;
  /** train the surrogate with FixMatch (else supervised) */
  readonly fixmatch: boolean;
  readonly steps?: number;
  /** warm start: with the previous round's weights in state.warmStart, FixMatch trains on from them for this many steps
   * instead of `steps` from a fresh initialisation; absent, every round starts cold */
  readonly warmSteps?: number;
  readonly threshold?: number;
  /** batch size n of the next acquisition; 0 acquires nothing (the last round) */
  readonly batch: number;
  /** the run's seed: every random choice of the round derives from it and the round index */
  readonly seed: number;
  readonly design?: Design;
  readonly scoreMode?: ScoreMode;
  readonly eps?: number;
  /** the next batch drawn uniformly (the proportional design's uniform share eps = 1) while the estimator reports a
   * prediction-powered table for some clustering (Estimator.restsOnLabels): that table's variance is the sum over the pool of
   * (1/q - 1) times the squared residual, and the acquisition's low-score rows, where the labels must correct a poor surrogate
   * too, are drawn at eps / |U|; the soft table's rounds keep the acquisition's draws, which teach the surrogate (ESTIMATORS.md,
   * "Uniform draws while the labels carry the estimate") */
  readonly uniformWhileLabelsCarry?: boolean;
  /** rows never to acquire (e.g. already handed out as tasks but not yet labeled) */
  readonly exclude?: Int32Array;
  /** MC dropout passes for BALD (default 10) */
  readonly mcPasses?: number;
  /** interval draws and level; false skips the intervals */
  readonly intervals?: { readonly draws?: number; readonly level?: number } | false;
  readonly onProgress?: (progress: FitProgress) => void;
  /** told each round's estimator input once it is built (the simulator keeps them for offline replays: bin/cereal.ts simulate --save-inputs) */
  readonly onEstimatorInput?: (round: number, input: EstimatorInput) => void;
  /** more estimators to compute on the same surrogate (their estimates and intervals in byEstimator) */
  readonly compare?: readonly Estimator[];
  /** temperature-scale pi for the estimators with the temperature fitted on the earlier models'
   * out-of-sample predictions (default false: that temperature belongs to the older, weaker models
   * and over-softens the current one; the report is computed either way) */
  readonly calibrate?: boolean;
  /** the acquisition scores read pi temperature-scaled by this round's out-of-sample fit (default false: the raw pi, the
   * paper's scores); the recorded predictions and the estimators keep theirs. For the residual score, whose predicted
   * residual an overconfident pi understates (ESTIMATORS.md "Active inference") */
  readonly scoreCalibrated?: boolean;
  /** draw by the residual score (active inference) instead of `acquisition` in the rounds whose earlier models read calibrated:
   * the surrogate not weak and its out-of-sample under-confidence (SurrogateHealth.recentUnderconfidence, from 20 rows) within
   * plus or minus this gap (roundAcquisition). Absent: `acquisition` in every round */
  readonly residualWhenCalibrated?: number;
  readonly health?: HealthOptions;
  /** train supervised instead of FixMatch while the surrogate is flagged weak (measured out of sample before the fit):
   * on overlapping classes FixMatch confirms its own mistakes (issue #12: 13-37% accurate against 57% supervised) */
  readonly trainerGuard?: boolean;
}

/** Temperature scaling this round (calibration.ts): the temperature fitted on every earlier
 * out-of-sample prediction, and the ECE of the newest batch under the previous round's model,
 * raw and with the temperature that model was calibrated with (both out of sample). */
export interface CalibrationReport {
  readonly temperature: number;
  readonly fittedOn: number;
  readonly eceRaw: number | null;
  readonly eceCalibrated: number | null;
  readonly eceCount: number;
}

export interface RoundResult {
  readonly round: number;
  readonly nLabels: number;
  /** estimate[clustering][metric] */
  readonly estimate: Record<string, MetricValues>;
  readonly intervals: IntervalReport | null;
  /** null when the round needed no surrogate (Random acquisition, labels-only estimate, supervised) */
  readonly fit: FitReport | null;
  readonly unlabeled: Int32Array;
  /** pi(.|x) of the unlabeled rows, null without a surrogate */
  readonly proba: Float32Array | null;
  readonly pseudoLabels: Int32Array | null;
  /** the next batch to label (empty when batch = 0) */
  readonly next: Draw[];
  /** the acquisition scores of the pool the batch was drawn from (mean over clusterings), or null */
  readonly poolScores: { readonly rows: Int32Array; readonly scores: Float64Array } | null;
  readonly roundSeconds: number;
  /** the primary estimator and every compared one: estimate and intervals by estimator name */
  readonly byEstimator: Record<string, { readonly estimate: Record<string, MetricValues>; readonly intervals: IntervalReport | null }>;
  readonly calibration: CalibrationReport | null;
  /** the surrogate measured out of sample (surrogate-health.ts); null without a surrogate */
  readonly health: SurrogateHealth | null;
  /** the trainer this round used: FixMatch unless options.fixmatch is off or the trainer guard switched it */
  readonly trainer: "fixmatch" | "supervised" | null;
  /** the state's record extended with this round's model's view of the batch it drew: the next state's outOfSample */
  readonly outOfSample: OutOfSampleRecord;
  /** the trained surrogate's weights (the next state's warmStart), null without a surrogate or when it has none */
  readonly weights: Float32Array | null;
  /** the next draw's uniform share (EstimatedRound.nextEps): 1 where RoundOptions.uniformWhileLabelsCarry made it uniform */
  readonly eps: number;
}

/**
 * The acquisition a round draws with: `options.acquisition`, or the residual score where RoundOptions.residualWhenCalibrated
 * is set and the earlier models, measured out of sample on the batches since (the round's health, known before its fit),
 * read calibrated within that gap. The residual score puts labels where pi's predicted residual is large, which only an
 * honest pi predicts (ESTIMATORS.md "Active inference": digits' FixMatch is 1-2 points overconfident, the demo's 10-25);
 * round 0 has no such reading and keeps `options.acquisition`. Chosen given the past, so each draw's q stays its design's.
 * Only where the round draws proportionally: the residual score is a sampling weight (active inference), and a top-score or
 * uniform design would not draw by it as such. And only where those models were at least RESIDUAL_MIN_ACCURACY right: the
 * score pays where the residuals sit on few items; on the weak set FixMatch read calibrated at 77-90% right and the switch
 * cost weak-aniso and weak-modes (+0.0021 and +0.0015 NMI AEC, 4 seeds), while digits' switched rounds read 91-100%
 * (ESTIMATORS.md "Active inference").
 */
export function roundAcquisition(options: Pick<RoundOptions, "acquisition" | "design" | "residualWhenCalibrated">, health: SurrogateHealth | null): Acquisition {
  const gap = options.residualWhenCalibrated;
  if ((options.design ?? DEFAULT_DESIGN[options.acquisition]) !== "proportional") return options.acquisition;
  if (gap === undefined || !health || health.weak || health.recentUnderconfidence === null || health.recentCount < CALIBRATION_MIN_ROWS) return options.acquisition;
  if (health.recentAccuracy === null || health.recentAccuracy < RESIDUAL_MIN_ACCURACY) return options.acquisition;
  return Math.abs(health.recentUnderconfidence) <= gap ? "residual" : options.acquisition;
}

/** Does this configuration need the surrogate at all? Random + labels-only + supervised does not. */
export function needsSurrogate(options: Pick<RoundOptions, "acquisition" | "estimator" | "fixmatch" | "compare">): boolean {
  return options.acquisition !== "random" || options.estimator.usesSurrogate || options.fixmatch || (options.compare ?? []).some((e) => e.usesSurrogate);
}

/** the earlier models' predictions of the labeled rows, with their labels, for the temperature fit */
function outOfSamplePairs(state: CerealState, record: OutOfSampleRecord, newestOnly: boolean) {
  const raw: number[] = [];
  const calibrated: number[] = [];
  const labels: number[] = [];
  // the newest batch: the latest stage (Draw.round keys batches; in synchronous rounds it is state.round)
  const newest = state.draws.reduce((m, d) => Math.max(m, d.round), -1);
  state.labeled.rows.forEach((row, i) => {
    if (newestOnly && state.draws[i].round !== newest) return;
    const p = record.predictions.get(row);
    if (!p) return;
    raw.push(...p.raw);
    calibrated.push(...p.calibrated);
    labels.push(state.labeled.labels[i]);
  });
  return { raw: Float32Array.from(raw), calibrated: Float32Array.from(calibrated), labels: Int32Array.from(labels) };
}

/** The fit step's output, what the estimate and acquire steps read: pi of the unlabeled rows, BALD's MC passes, the guard's verdict. */
export interface FittedRound {
  readonly unlabeled: Int32Array;
  /** null when the round needed no surrogate */
  readonly fit: FitReport | null;
  readonly proba: Float32Array | null;
  readonly mc?: { readonly proba: Float32Array; readonly passes: number };
  readonly health: SurrogateHealth | null;
  /** the trainer ran FixMatch (not switched to supervised by the guard) */
  readonly fixmatch: boolean;
  /** the trained weights (Surrogate.weights), kept when the round warm-starts the next one (options.warmSteps); else null */
  readonly weights: Float32Array | null;
}

/** The estimate step's output: calibrated pi, pseudo-labels, and every estimator's estimates and intervals. */
export interface EstimatedRound {
  readonly calibrated: Float32Array | null;
  readonly calibration: CalibrationReport | null;
  readonly pseudoLabels: Int32Array | null;
  readonly byEstimator: RoundResult["byEstimator"];
  readonly estimate: Record<string, MetricValues>;
  readonly intervals: IntervalReport | null;
  /** the proportional design's uniform share for the next draw: 1 (uniform) where RoundOptions.uniformWhileLabelsCarry is set
   * and the primary estimator reports a prediction-powered table for some clustering (Estimator.restsOnLabels), else
   * RoundOptions.eps (default 0.1) */
  readonly nextEps: number;
}

/** The acquire step's output: the next batch, the pool's scores and the out-of-sample record extended by it. */
export interface AcquiredBatch {
  readonly next: Draw[];
  readonly poolScores: RoundResult["poolScores"];
  readonly outOfSample: OutOfSampleRecord;
}

/** Step 1: fit the surrogate on the labels (+ the unlabeled rows for FixMatch) and predict pi of the unlabeled rows. */
export async function fitRound(state: CerealState, surrogate: Surrogate | null, options: RoundOptions): Promise<FittedRound> {
  const { problem, labeled, round } = state;
  const unlabeled = unlabeledRows(problem.embeddings.n, labeled.rows);
  let fit: FitReport | null = null;
  let proba: Float32Array | null = null;
  let mc: FittedRound["mc"];
  // the earlier models measured on the batches labeled since: known before this round's fit
  const health = needsSurrogate(options) ? surrogateHealth(labeled, state.draws, state.outOfSample ?? EMPTY_RECORD, options.health) : null;
  const fixmatch = options.fixmatch && !(options.trainerGuard && health?.weak);
  const warm = options.warmSteps !== undefined && state.warmStart !== undefined;
  let weights: Float32Array | null = null;
  if (needsSurrogate(options)) {
    if (!surrogate) throw new Error("this round needs a surrogate");
    const start = warm ? { initialWeights: state.warmStart, steps: options.warmSteps } : { steps: options.steps };
    const inclusion = Float64Array.from(state.draws, (draw) => draw.q);
    fit = await surrogate.fit(labeled, unlabeled, { seed: deriveSeed(options.seed, "fit", round), fixmatch, threshold: options.threshold, inclusion, ...start }, options.onProgress);
    if (options.warmSteps !== undefined) weights = surrogate.weights?.() ?? null;
    proba = await surrogate.predictProba(unlabeled);
    if (options.acquisition === "bald" && options.batch > 0) {
      const passes = options.mcPasses ?? 10;
      mc = { proba: await surrogate.predictProbaMc(unlabeled, passes, deriveSeed(options.seed, "mc", round)), passes };
    }
  }
  return { unlabeled, fit, proba, mc, health, fixmatch, weights };
}

/**
 * The interim fit (issue #24): the previous round's model's pi in place of a fresh fit, for an
 * estimate the moment a round is due. `previous` is that model's pi over all N rows [N x C] (NaN on
 * the rows it saw labeled); the rows labeled since are out of sample for it, and the prediction-powered
 * tables read only each stage's own evidence (ESTIMATORS.md, "Interim estimates"). Null when a row
 * still unlabeled has no prediction (the previous model saw it labeled: a label since withdrawn).
 */
export function interimFit(state: CerealState, previous: Float32Array): FittedRound | null {
  const { problem, labeled } = state;
  const C = problem.numClasses;
  if (previous.length !== problem.embeddings.n * C) throw new Error(`the previous round's pi holds ${previous.length} values, not N x C = ${problem.embeddings.n * C}`);
  const unlabeled = unlabeledRows(problem.embeddings.n, labeled.rows);
  const proba = new Float32Array(unlabeled.length * C);
  for (let i = 0; i < unlabeled.length; i++) {
    for (let y = 0, from = unlabeled[i] * C; y < C; y++) {
      const p = previous[from + y];
      if (Number.isNaN(p)) return null;
      proba[i * C + y] = p;
    }
  }
  return { unlabeled, fit: null, proba, health: null, fixmatch: false, weights: null };
}

/** Step 2: calibrate pi, pseudo-label, and estimate every metric of every clustering with intervals, per estimator. */
export function estimateRound(state: CerealState, fitted: FittedRound, options: RoundOptions): EstimatedRound {
  const { problem, labeled, round } = state;
  const n = problem.embeddings.n;
  const C = problem.numClasses;
  const { unlabeled, proba } = fitted;
  const record = state.outOfSample ?? EMPTY_RECORD;
  // the estimators and intervals read calibrated pi; acquisition keeps the raw pi (the paper's scores)
  let calibrated = proba;
  let calibration: CalibrationReport | null = null;
  if (proba) {
    const all = outOfSamplePairs(state, record, false);
    const newest = outOfSamplePairs(state, record, true);
    const fit = fitTemperature(all.raw, all.labels, C);
    calibration = {
      temperature: fit.temperature,
      fittedOn: fit.n,
      eceRaw: newest.labels.length > 0 ? expectedCalibrationError(newest.raw, newest.labels, C) : null,
      eceCalibrated: newest.labels.length > 0 ? expectedCalibrationError(newest.calibrated, newest.labels, C) : null,
      eceCount: newest.labels.length,
    };
    if (options.calibrate === true && fit.temperature !== 1) calibrated = temperatureScale(proba, C, fit.temperature);
  }
  const pseudoLabels = proba ? pseudoLabel(proba, C) : null;

  const input: EstimatorInput = { n, numClasses: C, labeled, unlabeled, proba: calibrated, draws: state.draws, outOfSample: record };
  options.onEstimatorInput?.(round, input);
  const byEstimator: RoundResult["byEstimator"] = {};
  for (const [i, estimator] of [options.estimator, ...(options.compare ?? []).filter((e) => e.name !== options.estimator.name)].entries()) {
    const estimate = estimateMetrics(input, problem.clusterings, estimator);
    byEstimator[estimator.name] = {
      estimate,
      intervals:
        options.intervals === false
          ? null
          : bootstrapIntervals(input, problem.clusterings, estimator, {
              ...options.intervals,
              estimates: estimate,
              // the primary estimator keeps the stream it always had; compared ones get their own
              seed: i === 0 ? deriveSeed(options.seed, "intervals", round) : deriveSeed(options.seed, "intervals", round, estimator.name),
            }),
    };
  }
  const { estimate, intervals } = byEstimator[options.estimator.name];
  const labelsCarry = options.uniformWhileLabelsCarry === true && problem.clusterings.some((c) => options.estimator.restsOnLabels?.(input, c) === true);
  return { calibrated, calibration, pseudoLabels, byEstimator, estimate, intervals, nextEps: labelsCarry ? 1 : (options.eps ?? 0.1) };
}

/** Step 3: draw the next batch by the acquisition function and design, and extend the out-of-sample record with it. */
export function acquireRound(state: CerealState, fitted: FittedRound, estimated: EstimatedRound, options: RoundOptions): AcquiredBatch {
  const { problem, labeled, round } = state;
  const n = problem.embeddings.n;
  const C = problem.numClasses;
  const { unlabeled, proba, mc } = fitted;
  const { calibrated, calibration, pseudoLabels } = estimated;
  const record = state.outOfSample ?? EMPTY_RECORD;
  if (options.batch <= 0 || unlabeled.length === 0) return { next: [], poolScores: null, outOfSample: record };
  let currentClasses: Int32Array | null = null;
  if (pseudoLabels) {
    currentClasses = new Int32Array(n);
    for (let i = 0; i < labeled.rows.length; i++) currentClasses[labeled.rows[i]] = labeled.labels[i];
    for (let i = 0; i < unlabeled.length; i++) currentClasses[unlabeled[i]] = pseudoLabels[i];
  }
  const pool = acquisitionPool(unlabeled, proba, mc, C, options.exclude);
  const eps = estimated.nextEps;
  const temperature = calibration?.temperature ?? 1;
  const scored = options.scoreCalibrated === true && pool.proba && temperature !== 1 ? temperatureScale(pool.proba, C, temperature) : pool.proba;
  const { design, draws, scores } = acquireBatch(
    { numClasses: C, clusterings: problem.clusterings, pool: pool.rows, proba: scored, mc: pool.mc, currentClasses },
    { acquisition: roundAcquisition(options, fitted.health), n: options.batch, design: options.design, scoreMode: options.scoreMode, eps },
    Random.from(options.seed, "acquire", round),
  );
  const next = recordDraws(draws, design, round + 1, state.draws.length);
  const poolScores = scores ? { rows: pool.rows, scores } : null;
  let outOfSample = record;
  if (calibrated && pool.proba) {
    outOfSample = extendRecord(record, {
      round: round + 1,
      pool: pool.rows,
      rawProba: pool.proba,
      calibratedProba: pool.rows === unlabeled ? calibrated : acquisitionPool(unlabeled, calibrated, undefined, C, options.exclude).proba!,
      temperature: options.calibrate === true ? (calibration?.temperature ?? 1) : 1,
      numClasses: C,
      clusterings: problem.clusterings,
      drawnPositions: positionsIn(pool.rows, next.map((d) => d.row)),
      // the proportional design's q of every pool row (mean score mode); uniform: n/|pool|
      q: design === "proportional" && scores ? inclusionProbabilities(scores, options.batch, eps) : undefined,
    });
  }
  return { next, poolScores, outOfSample };
}

/**
 * The acquire step without a draw (asynchronous acquisition, stages.ts): the ranking of every row
 * this round could draw (mean scores) and its model's pi, which later stages draw with.
 */
export function rankRound(state: CerealState, fitted: FittedRound, estimated: EstimatedRound, options: RoundOptions): Ranking {
  const { problem, labeled } = state;
  const n = problem.embeddings.n;
  const C = problem.numClasses;
  const { unlabeled, proba, mc } = fitted;
  const acquisition = roundAcquisition(options, fitted.health);
  const design = options.design ?? DEFAULT_DESIGN[acquisition];
  const eps = estimated.nextEps;
  let currentClasses: Int32Array | null = null;
  if (estimated.pseudoLabels) {
    currentClasses = new Int32Array(n);
    for (let i = 0; i < labeled.rows.length; i++) currentClasses[labeled.rows[i]] = labeled.labels[i];
    for (let i = 0; i < unlabeled.length; i++) currentClasses[unlabeled[i]] = estimated.pseudoLabels[i];
  }
  const pool = acquisitionPool(unlabeled, proba, mc, C, options.exclude);
  const poolScores = meanScores({ numClasses: C, clusterings: problem.clusterings, pool: pool.rows, proba: pool.proba, mc: pool.mc, currentClasses }, acquisition);
  const scores = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < pool.rows.length; i++) scores[pool.rows[i]] = poolScores[i];
  let rawProba: Float32Array | null = null;
  if (proba) {
    rawProba = new Float32Array(n * C).fill(Number.NaN);
    for (let i = 0; i < unlabeled.length; i++) for (let y = 0, to = unlabeled[i] * C; y < C; y++) rawProba[to + y] = proba[i * C + y];
  }
  const temperature = options.calibrate === true ? (estimated.calibration?.temperature ?? 1) : 1;
  return { round: state.round, design, eps, scores, rawProba, temperature };
}

/** The three steps in order (the simulator's round; the app's worker times each step itself). */
export async function runRound(state: CerealState, surrogate: Surrogate | null, options: RoundOptions): Promise<RoundResult> {
  const started = performance.now();
  const fitted = await fitRound(state, surrogate, options);
  const estimated = estimateRound(state, fitted, options);
  const acquired = acquireRound(state, fitted, estimated, options);
  return roundResult(state, fitted, estimated, acquired, (performance.now() - started) / 1000);
}

/** The steps' outputs as one RoundResult. */
export function roundResult(state: CerealState, fitted: FittedRound, estimated: EstimatedRound, acquired: AcquiredBatch, roundSeconds: number): RoundResult {
  return {
    round: state.round,
    nLabels: state.labeled.rows.length,
    estimate: estimated.estimate,
    intervals: estimated.intervals,
    fit: fitted.fit,
    unlabeled: fitted.unlabeled,
    proba: fitted.proba,
    pseudoLabels: estimated.pseudoLabels,
    next: acquired.next,
    poolScores: acquired.poolScores,
    roundSeconds,
    byEstimator: estimated.byEstimator,
    calibration: estimated.calibration,
    health: fitted.health,
    trainer: fitted.fit ? (fitted.fixmatch ? "fixmatch" : "supervised") : null,
    outOfSample: acquired.outOfSample,
    weights: fitted.weights,
    eps: estimated.nextEps,
  };
}

/** The unlabeled rows that may be acquired, with their slices of pi and of the MC passes. */
function acquisitionPool(
  unlabeled: Int32Array,
  proba: Float32Array | null,
  mc: { proba: Float32Array; passes: number } | undefined,
  C: number,
  exclude: Int32Array | undefined,
): { rows: Int32Array; proba: Float32Array | null; mc?: { proba: Float32Array; passes: number } } {
  if (!exclude?.length) return { rows: unlabeled, proba, mc };
  const skip = new Uint8Array(unlabeled.length ? unlabeled[unlabeled.length - 1] + 1 : 0);
  for (const row of exclude) if (row < skip.length) skip[row] = 1;
  let kept = 0;
  for (let i = 0; i < unlabeled.length; i++) if (!skip[unlabeled[i]]) kept++;
  // positions in unlabeled of the rows kept
  const keep = new Int32Array(kept);
  for (let i = 0, j = 0; i < unlabeled.length; i++) if (!skip[unlabeled[i]]) keep[j++] = i;
  const slice = (source: Float32Array, offset: number) => {
    const out = new Float32Array(keep.length * C);
    for (let j = 0; j < keep.length; j++) for (let y = 0, from = offset + keep[j] * C; y < C; y++) out[j * C + y] = source[from + y];
    return out;
  };
  return {
    rows: keep.map((i) => unlabeled[i]),
    proba: proba ? slice(proba, 0) : null,
    mc: mc && {
      passes: mc.passes,
      proba: (() => {
        const out = new Float32Array(mc.passes * keep.length * C);
        for (let p = 0; p < mc.passes; p++) out.set(slice(mc.proba, p * unlabeled.length * C), p * keep.length * C);
        return out;
      })(),
    },
  };
}
