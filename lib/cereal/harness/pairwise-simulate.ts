/**
 * The oracle simulator in pairwise mode: the reference labels answer "same class or not?" for
 * every pair drawn, rounds run runPairwiseRound, and the output has the clusterwise simulator's
 * shape (rounds with estimate, interval, true, absErr; summary.aec and aecPer1000Labels), so the
 * same tables read both. nLabels counts answered pairs: one pair answer is one label.
 */
import { contingency, metricsFromTable, type MetricKey, type MetricValues } from "@/lib/metrics";
import { drawUniformPairs, recordPairDraws, type PairDesign, type PairDesignOptions, type PairDrawRecord } from "../pairwise/pair-designs";
import type { PseudoLabelStrategy } from "../pairwise/pairwise-estimate";
import { addPairAnswers, initialPairwiseState, PAIRWISE_MEMBERS, runPairwiseRound, type PairwiseRoundOptions, type PairwiseState } from "../pairwise/pairwise-round";
import type { PairwiseSurrogateFactory } from "../pairwise/pair-surrogate";
import { defaultNumOutputs } from "../pairwise/pair-surrogate";
import type { CerealProblem } from "../method/problem";
import { Random } from "../../random/named-streams";
import type { StopRuleOptions } from "../method/stop-rule";
import { metricMap, summarise, trueMetrics, type RoundRecord, type SimulationSummary } from "./simulate";
import { stopRecorder } from "./stop-records";
import { drawingModelsInformative, pairCounts, pairPpiEstimate, stagesByRound, withoutFmiShift } from "../pairwise/pair-count-ppi";
import type { Interval, IntervalReport } from "../method/intervals";

export interface PairwiseSimulateOptions {
  readonly design: PairDesign;
  readonly strategy: PseudoLabelStrategy;
  readonly threshold?: number;
  readonly seed: number;
  /** pairs in the uniform seed batch (default: the batch size) */
  readonly seedSize?: number;
  /** pairs per later batch (default 1000) */
  readonly batch?: number;
  /** answered pairs in all, the seed included (default 10000) */
  readonly budget?: number;
  /** K' (default twice the bundle's number of classes) */
  readonly numOutputs?: number;
  /** PairwiseRoundOptions.holdOut (default 0) */
  readonly holdOut?: number;
  /** fits per round (PairwiseRoundOptions.members; default PAIRWISE_MEMBERS) */
  readonly members?: number;
  readonly designOptions?: PairDesignOptions;
  readonly intervals?: { readonly draws?: number; readonly level?: number } | false;
  /** the stop rule's thresholds (default: stop-rule.ts DEFAULTS); recorded per round with intervals, as the clusterwise simulator does */
  readonly stopRule?: StopRuleOptions;
  /**
   * record the prediction-powered estimate beside the argmax one (byEstimator "pair-ppi";
   * pair-count-ppi.ts: ARI and FMI from corrected pair counts, NMI, AMI and V-measure shifted by the
   * FMI correction, delta-method intervals); the uncertain and anchor designs correct with each
   * stage's uniform share (none: the seed stage's plain count)
   */
  readonly pairPpi?: boolean;
  /** record the seconds fields (default true); false nulls them so equal seeds give equal JSON */
  readonly timings?: boolean;
  readonly onRound?: (record: PairwiseRoundRecord) => void;
  /** told every training step of every round; a throw ends the run (a cancelled or draining job) */
  readonly onProgress?: PairwiseRoundOptions["onProgress"];
}

export interface PairwiseRoundRecord extends RoundRecord {
  /** how well the model that drew the newest stage predicted its uniform pairs' answers (FittedPairwiseRound.pairAccuracy) */
  readonly pairAccuracy: number | null;
  /** share of answered pairs whose answer is "same" */
  readonly positiveShare: number;
  /** share of items the estimate used (1 with the `all` strategy) */
  readonly estimatedShare: number;
  /** distinct argmax cluster ids over all items */
  readonly clustersUsed: number;
}

export interface PairwiseSimulationResult {
  readonly config: Record<string, unknown>;
  readonly rounds: PairwiseRoundRecord[];
  readonly draws: PairDrawRecord[];
  readonly summary: SimulationSummary;
}

export async function simulatePairwise(
  problem: CerealProblem,
  labels: Int32Array,
  factory: PairwiseSurrogateFactory,
  options: PairwiseSimulateOptions,
): Promise<PairwiseSimulationResult> {
  const batch = options.batch ?? 1000;
  const seedSize = options.seedSize ?? batch;
  const budget = options.budget ?? 10000;
  const timings = options.timings ?? true;
  const numOutputs = options.numOutputs ?? defaultNumOutputs(problem.numClasses);
  const n = problem.embeddings.n;
  if (labels.length !== n) throw new Error(`${labels.length} reference labels for ${n} items`);
  if (seedSize <= 0 || batch <= 0) throw new Error("seed size and batch must be positive");
  // each stage's drawing model: round r's p(.|x) corrects stage r + 1, whose answers it never saw
  const stageModels = new Map<number, readonly Float32Array[]>();
  const truth = trueMetrics(problem, labels);
  const oracle = (draws: readonly PairDrawRecord[]) => Uint8Array.from(draws, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0));

  const seedDraws = recordPairDraws(drawUniformPairs(n, Math.min(seedSize, budget), Random.from(options.seed, "seed-batch")), "uniform", 0, 0);
  let state: PairwiseState = { ...initialPairwiseState(problem, seedDraws, oracle(seedDraws)), stageModels };
  const surrogate = await factory(problem.embeddings, numOutputs);
  const rounds: PairwiseRoundRecord[] = [];
  // (no pool size: answers are drawn from the n(n-1)/2 pairs, a pool without end to the projection)
  const recordStop = stopRecorder(problem.clusterings.map((c) => c.name), options.stopRule);
  try {
    for (;;) {
      const nLabels = state.pairs.a.length;
      const result = await runPairwiseRound(state, surrogate, {
        design: options.design,
        strategy: options.strategy,
        threshold: options.threshold,
        holdOut: options.holdOut,
        members: options.members,
        batch: Math.max(0, Math.min(batch, budget - nLabels)),
        seed: options.seed,
        designOptions: options.designOptions,
        intervals: options.intervals,
        onProgress: options.onProgress,
      });
      let accuracy: number | null = null;
      let confidence: number | null = null;
      let clustersUsed = 0;
      if (result.proba && result.pseudoLabels) {
        // cluster ids carry no class: accuracy is ACC, the best one-to-one matching of ids to classes
        accuracy = metricsFromTable(contingency(labels, result.pseudoLabels)).acc;
        let sumMax = 0;
        for (let i = 0; i < n; i++) sumMax += result.proba[i * numOutputs + result.pseudoLabels[i]];
        confidence = sumMax / n;
        clustersUsed = new Set(result.pseudoLabels).size;
      }
      let positives = 0;
      for (const s of state.pairs.same) positives += s;
      if (result.proba) stageModels.set(result.round + 1, [result.proba]);
      const byEstimator = options.pairPpi ? pairPpiRecords(problem, state, stageModels, numOutputs, result.estimate, result.intervals, truth) : undefined;
      const record: PairwiseRoundRecord = {
        round: result.round,
        nLabels,
        estimate: result.estimate,
        interval: result.intervals?.interval ?? null,
        pBest: result.intervals?.pBest ?? null,
        true: truth,
        absErr: Object.fromEntries(
          problem.clusterings.map((c) => [c.name, metricMap((k) => Math.abs(result.estimate[c.name][k] - truth[c.name][k]))]),
        ),
        stop: recordStop(nLabels, result.estimate, result.intervals?.interval ?? null),
        surrogateAccuracyOnUnlabeled: accuracy,
        surrogateConfidenceOnUnlabeled: confidence,
        maskRate: null,
        trainSeconds: timings && result.fit ? result.fit.trainSeconds : null,
        roundSeconds: timings ? result.roundSeconds : null,
        backend: result.fit?.backend ?? null,
        pairAccuracy: result.pairAccuracy,
        positiveShare: nLabels ? positives / nLabels : 0,
        estimatedShare: result.estimatedRows.length / n,
        clustersUsed,
        ...(byEstimator ? { byEstimator } : {}),
      };
      rounds.push(record);
      options.onRound?.(record);
      if (result.next.length === 0) break;
      state = addPairAnswers(state, result.next, oracle(result.next));
    }
  } finally {
    surrogate.dispose();
  }

  return {
    config: {
      mode: "pairwise",
      pairDesign: options.design,
      strategy: options.strategy,
      threshold: options.strategy === "thresholded" ? (options.threshold ?? 0.5) : null,
      seed: options.seed,
      seedSize,
      batch,
      budget,
      numOutputs,
      holdOut: options.holdOut ?? 0,
      members: options.members ?? PAIRWISE_MEMBERS,
      uniformShare: options.designOptions?.uniformShare ?? 0,
      clusterings: problem.clusterings.map((c) => c.name),
    },
    rounds,
    draws: [...state.draws],
    summary: summarise(rounds, problem.clusterings.map((c) => c.name), batch),
  };
}

/**
 * argmax and pair-ppi estimates of a round, with their intervals. pair-ppi's come from
 * pairPpiEstimate even without bootstrap intervals (then ACC and AP, which it does not correct,
 * get the point as their interval), with the app's rule: NMI, AMI and V-measure span their whole
 * range until the drawing models are shown informative (pairCountIntervals).
 */
function pairPpiRecords(
  problem: CerealProblem,
  state: { pairs: { a: Int32Array; b: Int32Array; same: Uint8Array }; draws: readonly PairDrawRecord[] },
  stageModels: ReadonlyMap<number, readonly Float32Array[]>,
  k: number,
  estimate: Record<string, MetricValues>,
  intervals: IntervalReport | null,
  truth: Record<string, MetricValues>,
) {
  const stages = stagesByRound(state.pairs, state.draws, stageModels, k);
  const level = intervals?.level ?? 0.9;
  const corrected = Object.fromEntries(
    problem.clusterings.map((c) => [c.name, pairPpiEstimate(pairCounts(c.assignments, stages), estimate[c.name], intervals?.interval[c.name] ?? null, level)]),
  );
  const record = (values: Record<string, MetricValues>, interval: Record<string, Record<MetricKey, Interval>> | null) => ({
    estimate: values,
    interval,
    absErr: Object.fromEntries(problem.clusterings.map((c) => [c.name, metricMap((m) => Math.abs(values[c.name][m] - truth[c.name][m]))])),
  });
  const names = problem.clusterings.map((c) => c.name);
  const informed = drawingModelsInformative(stages) === true;
  return {
    argmax: record(estimate, intervals?.interval ?? null),
    "pair-ppi": record(
      Object.fromEntries(names.map((name) => [name, corrected[name].estimate])),
      Object.fromEntries(names.map((name) => [name, informed ? corrected[name].interval : withoutFmiShift(corrected[name].interval)])),
    ),
  };
}
