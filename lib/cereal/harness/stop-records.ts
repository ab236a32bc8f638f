/**
 * The stop rule as a simulation records it (clusterwise and pairwise alike): each round adds its
 * estimates and intervals to every clustering's and metric's history, and the record says whether
 * the estimate has converged and how many labels its width law still asks for (stop-rule.ts; the bundle's items as the pool).
 */
import { METRIC_KEYS, type MetricKey, type MetricValues } from "@/lib/metrics";
import type { Interval } from "../method/intervals";
import { stopDecision, type HistoryPoint, type StopRuleOptions } from "../method/stop-rule";

export interface StopRecord {
  readonly converged: boolean;
  readonly labelsStillNeeded: number | null;
}

export type StopRecords = Record<string, Record<MetricKey, StopRecord>>;

/** A recorder over a run's rounds: call it once per round, in order; a round without intervals records null. */
export function stopRecorder(clusterings: readonly string[], options?: StopRuleOptions) {
  const history = new Map<string, HistoryPoint[]>();
  return (nLabels: number, estimate: Record<string, MetricValues>, intervals: Record<string, Record<MetricKey, Interval>> | null): StopRecords | null => {
    if (!intervals) return null;
    const stop: StopRecords = {};
    for (const name of clusterings) {
      const perMetric = {} as Record<MetricKey, StopRecord>;
      for (const k of METRIC_KEYS) {
        const key = `${name}/${k}`;
        const points = history.get(key) ?? [];
        points.push({ nLabels, estimate: estimate[name][k], interval: intervals[name][k] });
        history.set(key, points);
        const decision = stopDecision(points, options);
        perMetric[k] = { converged: decision.converged, labelsStillNeeded: decision.labelsStillNeeded };
      }
      stop[name] = perMetric;
    }
    return stop;
  };
}
