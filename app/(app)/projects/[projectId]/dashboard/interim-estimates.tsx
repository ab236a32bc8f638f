"use client";

import type { TimedSnapshot } from "@/app/components/use-project-events";
import { formatMetric, METRICS, type MetricKey } from "@/app/components/metrics";

/**
 * A running round's interim estimates (issue #24): computed from the previous round's model the
 * moment the round became due, shown with the metric the dashboard is on and marked interim until
 * the round's own fit replaces them. The ranking and the chart keep the finished rounds.
 */
export function InterimEstimates({ snapshot, metric }: { snapshot: TimedSnapshot | null; metric: MetricKey }) {
  const from = snapshot?.estimatesRound;
  if (!from?.interim || !snapshot?.estimates) return null;
  const rows = Object.entries(snapshot.estimates)
    .flatMap(([name, byMetric]) => (byMetric[metric] ? [{ name, ...byMetric[metric] }] : []))
    .sort((a, b) => b.value - a.value);
  const label = METRICS.find((m) => m.key === metric)?.label ?? metric;
  return (
    <div className="mt-2 rounded-md border border-amber-200 bg-amber-50 px-2 py-1.5 text-xs text-amber-900" data-testid="interim-estimates">
      <p>
        <span className="rounded bg-amber-200 px-1.5 py-0.5 font-medium" data-testid="interim-badge">
          interim — model {from.model}, final estimate training
        </span>{" "}
        {label} of round {from.index} ({from.nLabels} labels), 90% interval:
      </p>
      <table className="mt-1 w-full tabular-nums">
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <td className="font-mono">{r.name}</td>
              <td className="text-right">{formatMetric(r.value)}</td>
              <td className="text-right text-amber-800">{r.lo !== null && r.hi !== null ? `[${formatMetric(r.lo)}, ${formatMetric(r.hi)}]` : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
