/**
 * The oracle simulator: Algorithm 1 end to end with the reference labels answering every query.
 * It records per round the estimates, intervals, the truth and the absolute errors, and
 * summarises a run by its AEC (aec.ts). Nothing here reads a file or a clock other than to time
 * rounds, so a run is a pure function of (problem, labels, surrogate factory, options) apart
 * from the timing fields, which `timings: false` nulls for byte-identical output.
 */
import { contingency, METRIC_KEYS, metricsFromTable, type MetricKey, type MetricValues } from "@/lib/metrics";
import type { ScoreMode } from "../method/acquire";
import { aec } from "./aec";
import type { Acquisition } from "../method/acquisition";
import { drawUniform, recordDraws, type Design, type Draw } from "../method/designs";
import type { Estimator } from "../method/estimators";
import type { Interval } from "../method/intervals";
import type { OutOfSampleRecord } from "../method/out-of-sample";
import { addLabels, initialState, type CerealProblem } from "../method/problem";
import { Random } from "../../random/named-streams";
import { needsSurrogate, roundAcquisition, runRound, type CalibrationReport, type RoundOptions } from "../method/round";
import { hardRows, oracleResponder, skippingResponder } from "./respond";
import { answerStage, nextStage, RankingWindow, rankedRound } from "./stage-schedule";
import type { SurrogateHealth } from "../method/surrogate-health";
import type { StopRuleOptions } from "../method/stop-rule";
import { stopRecorder, type StopRecords } from "./stop-records";
import type { CandidateReport, Surrogate, SurrogateFactory } from "../method/surrogate";

export interface SimulateOptions {
  readonly acquisition: Acquisition;
  readonly estimator: Estimator;
  readonly fixmatch: boolean;
  readonly seed: number;
  /** size of the uniform seed batch (default 50) */
  readonly seedSize?: number;
  /** n, labels per later batch (default 50) */
  readonly batch?: number;
  /** M, every label counted, the seed included (default 1000) */
  readonly budget?: number;
  readonly steps?: number;
  /** warm start (RoundOptions.warmSteps): rounds after the first train on from the previous round's weights for this many steps */
  readonly warmSteps?: number;
  readonly threshold?: number;
  readonly design?: Design;
  readonly scoreMode?: ScoreMode;
  readonly eps?: number;
  /** uniform draws while the estimator reports a prediction-powered table (RoundOptions.uniformWhileLabelsCarry) */
  readonly uniformWhileLabelsCarry?: boolean;
  readonly mcPasses?: number;
  readonly intervals?: { readonly draws?: number; readonly level?: number } | false;
  readonly stopRule?: StopRuleOptions;
  /** record the seconds fields (default true); false nulls them so equal seeds give equal JSON */
  readonly timings?: boolean;
  readonly onRound?: (record: RoundRecord) => void;
  /** told every training step of every round (RoundOptions.onProgress); a throw ends the run (a cancelled or draining job) */
  readonly onProgress?: RoundOptions["onProgress"];
  /** more estimators recorded in the same run (they share the surrogate): RoundRecord.byEstimator, summary.byEstimator */
  readonly compare?: readonly Estimator[];
  /** FixMatch -> supervised while the surrogate is weak (RoundOptions.trainerGuard) */
  readonly trainerGuard?: boolean;
  /** temperature scaling of pi for the estimators (default false, see RoundOptions.calibrate) */
  readonly calibrate?: boolean;
  /** the acquisition scores read the temperature-scaled pi (default false, see RoundOptions.scoreCalibrated) */
  readonly scoreCalibrated?: boolean;
  /** the residual score in place of `acquisition` where the earlier models read calibrated within this gap (RoundOptions.residualWhenCalibrated) */
  readonly residualWhenCalibrated?: number;
  /** asynchronous stages (stage-schedule.ts): stage s is drawn with round s - 1 - lag's ranking; 0 (default) is the synchronous loop */
  readonly lag?: number;
  /** difficulty-dependent non-response (respond.ts): a draw is skipped with this probability on a hard row, a fifth of it elsewhere (default 0) */
  readonly skipRate?: number;
  /** keep each labeled row's out-of-sample pi (the model that drew it) in the result, so a guard reading them can be replayed offline (default false) */
  readonly recordPredictions?: boolean;
  /** told each round's estimator input (RoundOptions.onEstimatorInput) */
  readonly onEstimatorInput?: RoundOptions["onEstimatorInput"];
}

/** one estimator's view of a round, when the run compares several */
export interface EstimatorRecord {
  readonly estimate: Record<string, MetricValues>;
  readonly interval: Record<string, Record<MetricKey, Interval>> | null;
  readonly absErr: Record<string, MetricValues>;
}

export interface RoundRecord {
  readonly round: number;
  readonly nLabels: number;
  readonly estimate: Record<string, MetricValues>;
  readonly interval: Record<string, Record<MetricKey, Interval>> | null;
  readonly pBest: Record<MetricKey, Record<string, number>> | null;
  readonly true: Record<string, MetricValues>;
  readonly absErr: Record<string, MetricValues>;
  readonly stop: StopRecords | null;
  readonly surrogateAccuracyOnUnlabeled: number | null;
  /** mean of max_y pi(y|x) over the unlabeled rows: above the accuracy, the surrogate is overconfident; below, underconfident (the intervals trust pi) */
  readonly surrogateConfidenceOnUnlabeled: number | null;
  readonly maskRate: number | null;
  readonly trainSeconds: number | null;
  readonly roundSeconds: number | null;
  readonly backend: string | null;
  /** every estimator of the run (the primary one included), by name */
  // optional: the pairwise simulator's records (pairwise-simulate.ts) extend this type without them
  readonly byEstimator?: Record<string, EstimatorRecord>;
  readonly calibration?: CalibrationReport | null;
  readonly surrogateHealth?: SurrogateHealth | null;
  /** health.weak: the previous models' out-of-sample accuracy fell below the threshold */
  readonly surrogateWeak?: boolean;
  readonly trainer?: "fixmatch" | "supervised" | null;
  /** true where the next batch was drawn uniformly because the labels carry the estimate (RoundOptions.uniformWhileLabelsCarry); absent otherwise */
  readonly drawnUniform?: true;
  /** the acquisition the round drew its batch with, where RoundOptions.residualWhenCalibrated lets it change; absent otherwise */
  readonly acquisition?: Acquisition;
  /** a choosing surrogate's candidates this round (FitReport.candidates; the simulator's --surrogate select, select-cells and select-both) */
  readonly surrogateCandidates?: readonly CandidateReport[];
}

export interface SimulationSummary {
  /** x in rounds (one unit = one batch of n labels); mean over the clusterings, per metric */
  readonly aec: MetricValues;
  /** x in thousands of labels */
  readonly aecPer1000Labels: MetricValues;
  readonly aecByClustering: Record<string, { aec: MetricValues; aecPer1000Labels: MetricValues }>;
  readonly finalAbsErr: Record<string, MetricValues>;
  /** share of (round, clustering) pairs whose interval holds the true value, per metric; null without intervals */
  readonly intervalCoverage: MetricValues | null;
  readonly rounds: number;
  readonly nLabels: number;
  /** per estimator: AEC, coverage, and coverage counts of rounds after 200 labels */
  readonly byEstimator: Record<string, EstimatorSummary>;
}

export interface EstimatorSummary {
  readonly aec: MetricValues;
  readonly aecPer1000Labels: MetricValues;
  readonly intervalCoverage: MetricValues | null;
  /** (round, clustering) pairs with nLabels > 200 whose interval holds the truth, and how many there were */
  readonly coveredAfter200: MetricValues | null;
  readonly countAfter200: number;
}

export interface SimulationResult {
  readonly config: Record<string, unknown>;
  readonly rounds: RoundRecord[];
  readonly draws: Draw[];
  /** with recordPredictions: each labeled row's out-of-sample pi(.|x) by row, calibrated as the estimators read it */
  readonly predictions?: Record<number, number[]>;
  readonly summary: SimulationSummary;
}

/** one value per metric key */
export function metricMap(f: (k: MetricKey) => number): MetricValues {
  return Object.fromEntries(METRIC_KEYS.map((k) => [k, f(k)])) as MetricValues;
}

/** the true metrics of every clustering against the full reference labels */
export function trueMetrics(problem: CerealProblem, labels: Int32Array): Record<string, MetricValues> {
  return Object.fromEntries(problem.clusterings.map((c) => [c.name, metricsFromTable(contingency(labels, c.assignments))]));
}

export async function simulate(
  problem: CerealProblem,
  labels: Int32Array,
  factory: SurrogateFactory,
  options: SimulateOptions,
): Promise<SimulationResult> {
  const seedSize = options.seedSize ?? 50;
  const batch = options.batch ?? 50;
  const budget = options.budget ?? 1000;
  const timings = options.timings ?? true;
  const n = problem.embeddings.n;
  if (labels.length !== n) throw new Error(`${labels.length} reference labels for ${n} items`);
  if (seedSize <= 0 || batch <= 0) throw new Error("seed size and batch must be positive");
  const lag = options.lag ?? 0;
  const skipRate = options.skipRate ?? 0;
  const truth = trueMetrics(problem, labels);
  const respond =
    skipRate > 0 ? skippingResponder(labels, hardRows(labels, problem.clusterings[0], problem.numClasses), skipRate, options.seed) : oracleResponder(labels);
  // the asynchronous schedule's rankings (lag >= 1) and the rows drawn but skipped (out of every later pool)
  const window = new RankingWindow(lag);
  const skipped = new Set<number>();

  const allRows = Int32Array.from({ length: n }, (_, i) => i);
  const seedDraws = recordDraws(drawUniform(allRows, Math.min(seedSize, budget, n), Random.from(options.seed, "seed-batch")), "uniform", 0, 0);
  const seedAnswers = answerStage(seedDraws, 0, respond);
  seedAnswers.skipped.forEach((row) => skipped.add(row));
  let state = initialState(problem, seedAnswers.draws, seedAnswers.labels);

  const surrogate: Surrogate | null = needsSurrogate(options) ? await factory(problem.embeddings, problem.numClasses) : null;
  const rounds: RoundRecord[] = [];
  // per clustering and metric, the estimates so far: the stop rule reads them
  // the labels come from the bundle's n items: the projection asks for at most the ones left
  const recordStop = stopRecorder(problem.clusterings.map((c) => c.name), { ...options.stopRule, poolSize: n });

  try {
    for (;;) {
      const nLabels = state.labeled.rows.length;
      // the budget counts draws: a skipped draw cost the annotator's look
      const nDrawn = nLabels + skipped.size;
      const nextBatch = Math.max(0, Math.min(batch, budget - nDrawn, n - nDrawn));
      const roundOptions: RoundOptions = {
        acquisition: options.acquisition,
        estimator: options.estimator,
        fixmatch: options.fixmatch,
        steps: options.steps,
        warmSteps: options.warmSteps,
        threshold: options.threshold,
        batch: nextBatch,
        seed: options.seed,
        design: options.design,
        scoreMode: options.scoreMode,
        eps: options.eps,
        uniformWhileLabelsCarry: options.uniformWhileLabelsCarry,
        mcPasses: options.mcPasses,
        intervals: options.intervals,
        compare: options.compare,
        calibrate: options.calibrate,
        scoreCalibrated: options.scoreCalibrated,
        residualWhenCalibrated: options.residualWhenCalibrated,
        trainerGuard: options.trainerGuard,
        exclude: skipped.size > 0 ? Int32Array.from(skipped) : undefined,
        onProgress: options.onProgress,
        onEstimatorInput: options.onEstimatorInput,
      };
      const result = lag === 0 ? await runRound(state, surrogate, roundOptions) : await rankedRound(state, surrogate, roundOptions, window);

      let accuracy: number | null = null;
      let confidence: number | null = null;
      if (result.pseudoLabels && result.proba && result.unlabeled.length > 0) {
        let right = 0;
        let sumMax = 0;
        const C = problem.numClasses;
        for (let i = 0; i < result.unlabeled.length; i++) {
          if (result.pseudoLabels[i] === labels[result.unlabeled[i]]) right++;
          sumMax += result.proba[i * C + result.pseudoLabels[i]];
        }
        accuracy = right / result.unlabeled.length;
        confidence = sumMax / result.unlabeled.length;
      }
      const absErr = Object.fromEntries(
        problem.clusterings.map((c) => [c.name, metricMap((k) => Math.abs(result.estimate[c.name][k] - truth[c.name][k]))]),
      );
      const stop = recordStop(nLabels, result.estimate, result.intervals?.interval ?? null);
      const record: RoundRecord = {
        round: result.round,
        nLabels,
        estimate: result.estimate,
        interval: result.intervals?.interval ?? null,
        pBest: result.intervals?.pBest ?? null,
        true: truth,
        absErr,
        stop,
        surrogateAccuracyOnUnlabeled: accuracy,
        surrogateConfidenceOnUnlabeled: confidence,
        maskRate: result.fit?.maskRate ?? null,
        trainSeconds: timings && result.fit ? result.fit.trainSeconds : null,
        roundSeconds: timings ? result.roundSeconds : null,
        backend: result.fit?.backend ?? null,
        byEstimator: Object.fromEntries(
          Object.entries(result.byEstimator).map(([name, e]) => [
            name,
            {
              estimate: e.estimate,
              interval: e.intervals?.interval ?? null,
              absErr: Object.fromEntries(
                problem.clusterings.map((c) => [c.name, metricMap((k) => Math.abs(e.estimate[c.name][k] - truth[c.name][k]))]),
              ),
            },
          ]),
        ),
        calibration: result.calibration,
        surrogateHealth: result.health,
        surrogateWeak: result.health?.weak ?? false,
        trainer: result.trainer,
        // only when reported, so other runs' JSON (and the simulate reference hash) stay what they were
        ...(result.fit?.candidates ? { surrogateCandidates: result.fit.candidates } : {}),
        ...(nextBatch > 0 && result.eps !== (options.eps ?? 0.1) ? { drawnUniform: true as const } : {}),
        ...(options.residualWhenCalibrated !== undefined ? { acquisition: roundAcquisition(roundOptions, result.health) } : {}),
      };
      rounds.push(record);
      options.onRound?.(record);
      if (lag === 0) {
        if (result.next.length === 0) break;
        // the round stamps orders after the labeled draws; with skips, after every draw
        const next = skipped.size > 0 ? result.next.map((d, i) => ({ ...d, order: nDrawn + i })) : result.next;
        const answered = answerStage(next, result.round + 1, respond);
        answered.skipped.forEach((row) => skipped.add(row));
        state = { ...addLabels(state, answered.draws, answered.labels), outOfSample: result.outOfSample, warmStart: result.weights ?? undefined };
      } else {
        if (nextBatch === 0) break;
        const staged = nextStage(state, { size: nextBatch, window, seed: options.seed, skipped, respond });
        staged.skipped.forEach((row) => skipped.add(row));
        state = { ...staged.state, warmStart: result.weights ?? undefined };
      }
    }
  } finally {
    surrogate?.dispose();
  }

  return {
    config: {
      acquisition: options.acquisition,
      estimator: options.estimator.name,
      compare: (options.compare ?? []).map((e) => e.name),
      calibrate: options.calibrate ?? false,
      scoreCalibrated: options.scoreCalibrated ?? false,
      trainerGuard: options.trainerGuard ?? false,
      fixmatch: options.fixmatch,
      seed: options.seed,
      seedSize,
      batch,
      budget,
      steps: options.steps ?? null,
      // only when set, so cold runs' JSON (and the simulate reference hash) stay what they were
      ...(options.warmSteps !== undefined ? { warmSteps: options.warmSteps } : {}),
      design: options.design ?? null,
      scoreMode: options.scoreMode ?? "mean",
      clusterings: problem.clusterings.map((c) => c.name),
      // the pool the labels are drawn from, which the stop rule's projection reads (harness/run-tables.ts replays it)
      items: n,
      // only when set, so synchronous runs' JSON (and the grid jobs' keys) stay what they were
      ...(lag > 0 ? { lag } : {}),
      ...(skipRate > 0 ? { skipRate } : {}),
      ...(options.uniformWhileLabelsCarry ? { uniformWhileLabelsCarry: true } : {}),
      ...(options.residualWhenCalibrated !== undefined ? { residualWhenCalibrated: options.residualWhenCalibrated } : {}),
    },
    rounds,
    draws: [...state.draws],
    ...(options.recordPredictions ? { predictions: recordedPredictions(state.draws, state.outOfSample) } : {}),
    summary: summarise(rounds, problem.clusterings.map((c) => c.name), batch),
  };
}

function recordedPredictions(draws: readonly Draw[], record: OutOfSampleRecord | undefined): Record<number, number[]> {
  const out: Record<number, number[]> = {};
  for (const { row } of draws) {
    const prediction = record?.predictions.get(row);
    if (prediction) out[row] = Array.from(prediction.calibrated);
  }
  return out;
}

function intervalCoverage(rounds: readonly RoundRecord[], clusterings: readonly string[]): MetricValues | null {
  if (rounds.length === 0 || rounds.some((r) => r.interval === null)) return null;
  return metricMap((k) => {
    let covered = 0;
    for (const r of rounds)
      for (const name of clusterings) {
        const [lo, hi] = r.interval![name][k];
        if (r.true[name][k] >= lo && r.true[name][k] <= hi) covered++;
      }
    return covered / (rounds.length * clusterings.length);
  });
}

/** AEC per clustering and metric, and its mean over the clusterings. */
export function summarise(rounds: readonly RoundRecord[], clusterings: readonly string[], batch: number): SimulationSummary {
  const aecByClustering: SimulationSummary["aecByClustering"] = {};
  for (const name of clusterings) {
    const curve = (k: MetricKey) => rounds.map((r) => ({ nLabels: r.nLabels, absErr: r.absErr[name][k] }));
    aecByClustering[name] = {
      aec: metricMap((k) => aec(curve(k), batch)),
      aecPer1000Labels: metricMap((k) => aec(curve(k), 1000)),
    };
  }
  const mean = (f: (name: string) => number) => clusterings.reduce((s, name) => s + f(name), 0) / clusterings.length;
  const last = rounds[rounds.length - 1];
  return {
    aec: metricMap((k) => mean((name) => aecByClustering[name].aec[k])),
    aecPer1000Labels: metricMap((k) => mean((name) => aecByClustering[name].aecPer1000Labels[k])),
    aecByClustering,
    finalAbsErr: last ? last.absErr : {},
    intervalCoverage: intervalCoverage(rounds, clusterings),
    rounds: rounds.length,
    nLabels: last ? last.nLabels : 0,
    byEstimator: summariseEstimators(rounds, clusterings, batch),
  };
}

/** AEC and interval coverage of every estimator recorded in the rounds */
export function summariseEstimators(rounds: readonly RoundRecord[], clusterings: readonly string[], batch: number): Record<string, EstimatorSummary> {
  const out: Record<string, EstimatorSummary> = {};
  const names = rounds.length > 0 ? Object.keys(rounds[0].byEstimator ?? {}) : [];
  const mean = (f: (name: string) => number) => clusterings.reduce((s, name) => s + f(name), 0) / clusterings.length;
  for (const e of names) {
    const curve = (name: string, k: MetricKey) => rounds.map((r) => ({ nLabels: r.nLabels, absErr: r.byEstimator![e].absErr[name][k] }));
    const withIntervals = rounds.every((r) => r.byEstimator![e].interval !== null);
    const covers = (r: RoundRecord, name: string, k: MetricKey) => {
      const [lo, hi] = r.byEstimator![e].interval![name][k];
      return r.true[name][k] >= lo && r.true[name][k] <= hi ? 1 : 0;
    };
    const late = rounds.filter((r) => r.nLabels > 200);
    out[e] = {
      aec: metricMap((k) => mean((name) => aec(curve(name, k), batch))),
      aecPer1000Labels: metricMap((k) => mean((name) => aec(curve(name, k), 1000))),
      intervalCoverage: withIntervals
        ? metricMap((k) => rounds.reduce((s, r) => s + clusterings.reduce((t, name) => t + covers(r, name, k), 0), 0) / (rounds.length * clusterings.length))
        : null,
      coveredAfter200: withIntervals ? metricMap((k) => late.reduce((s, r) => s + clusterings.reduce((t, name) => t + covers(r, name, k), 0), 0)) : null,
      countAfter200: late.length * clusterings.length,
    };
  }
  return out;
}
