/**
 * Intervals for every estimate, and the probability that each clustering is the best, from B
 * joint draws (beyond the paper). A draw resamples the labeled set with replacement (bootstrap:
 * the uncertainty of having labelled these items and not others) and, for an estimator that reads
 * hard pseudo-labels (argmax), samples each unlabeled item's from pi(.|x) (the surrogate's own
 * uncertainty). The same draws serve every clustering, so their estimates are compared within a
 * draw: P(best) is the share of draws in which a clustering has the highest value of a metric
 * (ties shared).
 */
import { clampMetric, METRIC_KEYS, metricsFromTable, type MetricKey, type MetricValues } from "@/lib/metrics";
import { pointMetrics, type Estimator, type EstimatorInput } from "./estimators";
import type { TestClustering } from "./problem";
import { Random } from "../../random/named-streams";

export interface IntervalOptions {
  /** joint draws B (default 200) */
  readonly draws?: number;
  /** coverage of the interval (default 0.9) */
  readonly level?: number;
  readonly seed: number;
  /** the point estimates already made (estimateMetrics), so an estimator centred on its estimate does not make them again */
  readonly estimates?: Readonly<Record<string, MetricValues>>;
}

export type Interval = readonly [number, number];

export interface IntervalReport {
  /** interval[clustering][metric] = [lower, upper], percentiles of the draws */
  readonly interval: Record<string, Record<MetricKey, Interval>>;
  /** pBest[metric][clustering] = share of draws in which the clustering is the best */
  readonly pBest: Record<MetricKey, Record<string, number>>;
  readonly draws: number;
  readonly level: number;
}

/** quantile of sorted values, linear interpolation between order statistics (numpy's default) */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) => (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * One joint draw's input: multiplicities for the labeled rows, and pseudo-labels sampled from pi
 * when the estimator reads them (argmax). For the others the stream only moves past those
 * draws (one uniform per unlabeled row, as a categorical draw takes), without the O(N C) sampling
 * or an N-sized array per draw: every estimator keeps the multiplicities it always drew, so
 * recorded rounds recompute to the same intervals.
 */
export function drawInput(input: EstimatorInput, random: Random, estimator: Pick<Estimator, "usesSurrogate" | "readsPseudoLabels">): EstimatorInput {
  const m = input.labeled.rows.length;
  const multiplicity = new Int32Array(m);
  for (let i = 0; i < m; i++) multiplicity[random.int(m)]++;
  let pseudoLabels: Int32Array | undefined;
  if (estimator.usesSurrogate && input.proba) {
    if (estimator.readsPseudoLabels) {
      const C = input.numClasses;
      pseudoLabels = new Int32Array(input.unlabeled.length);
      for (let i = 0; i < pseudoLabels.length; i++) pseudoLabels[i] = random.categorical(input.proba, i * C, C);
    } else random.skip(input.unlabeled.length);
  }
  return { ...input, multiplicity, pseudoLabels };
}

export function aroundEstimate(estimate: number, lower: number, median: number, upper: number, reach?: number): Interval {
  const gap = Math.max(Math.abs(estimate - median), reach === undefined ? 0 : Math.abs(estimate - reach));
  return [estimate - Math.hypot(median - lower, gap), estimate + Math.hypot(upper - median, gap)];
}

export function bootstrapIntervals(
  input: EstimatorInput,
  clusterings: readonly TestClustering[],
  estimator: Estimator,
  options: IntervalOptions,
): IntervalReport {
  const B = options.draws ?? 200;
  const level = options.level ?? 0.9;
  const random = new Random(options.seed);
  const values: Record<string, Record<MetricKey, Float64Array>> = {};
  for (const c of clusterings)
    values[c.name] = Object.fromEntries(METRIC_KEYS.map((k) => [k, new Float64Array(B)])) as Record<MetricKey, Float64Array>;
  const wins = Object.fromEntries(METRIC_KEYS.map((k) => [k, Object.fromEntries(clusterings.map((c) => [c.name, 0]))])) as Record<
    MetricKey,
    Record<string, number>
  >;

  for (let b = 0; b < B; b++) {
    const draw = drawInput(input, random, estimator);
    for (const c of clusterings) {
      const metrics = metricsFromTable(estimator.table(draw, c));
      for (const k of METRIC_KEYS) values[c.name][k][b] = metrics[k];
    }
    for (const k of METRIC_KEYS) {
      let best = -Infinity;
      for (const c of clusterings) best = Math.max(best, values[c.name][k][b]);
      const winners = clusterings.filter((c) => values[c.name][k][b] === best);
      for (const c of winners) wins[k][c.name] += 1 / winners.length;
    }
  }

  const interval: Record<string, Record<MetricKey, Interval>> = {};
  const tail = (1 - level) / 2;
  for (const c of clusterings) {
    interval[c.name] = {} as Record<MetricKey, Interval>;
    const point = estimator.intervalCentre === "estimate" ? (options.estimates?.[c.name] ?? pointMetrics(estimator, input, c)) : null;
    const reach = point && estimator.intervalReach ? estimator.intervalReach(input, c) : null;
    const floor = estimator.intervalSpreadFloor ? estimator.intervalSpreadFloor(input, c) : null;
    for (const k of METRIC_KEYS) {
      const sorted = values[c.name][k].slice().sort();
      const median = quantile(sorted, 0.5);
      // each side's spread no narrower than the floor's standard error allows
      const least = floor ? normalQuantile(1 - tail) * floor[k] : 0;
      const lower = Math.min(quantile(sorted, tail), median - least);
      const upper = Math.max(quantile(sorted, 1 - tail), median + least);
      const [lo, hi] = point ? aroundEstimate(point[k], lower, median, upper, reach?.[k]) : [lower, upper];
      interval[c.name][k] = [clampMetric(k, lo), clampMetric(k, hi)];
    }
  }
  const pBest = {} as Record<MetricKey, Record<string, number>>;
  for (const k of METRIC_KEYS) pBest[k] = Object.fromEntries(clusterings.map((c) => [c.name, wins[k][c.name] / B]));
  return { interval, pBest, draws: B, level };
}
