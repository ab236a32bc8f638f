/**
 * The summaries the bench scripts print of a sample of per-run figures: the mean, the standard deviation
 * (n - 1 in the denominator) and the standard error of the mean (NaN under 2 values: one run says nothing of its spread); each metric's mean of several estimates.
 */
import { METRIC_KEYS, type MetricValues } from "@/lib/metrics";

export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** sample standard deviation; 0 for a single value */
export const sd = (xs: readonly number[]): number => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, xs.length - 1));
};

/** standard error of the mean, sd / sqrt(n); NaN under 2 values */
export const se = (xs: readonly number[]): number => (xs.length > 1 ? sd(xs) / Math.sqrt(xs.length) : Number.NaN);

/** each metric's mean over several estimates (an ensemble's fits, two rounds) */
export const meanMetrics = (values: readonly MetricValues[]): MetricValues => Object.fromEntries(METRIC_KEYS.map((m) => [m, mean(values.map((v) => v[m]))])) as MetricValues;
