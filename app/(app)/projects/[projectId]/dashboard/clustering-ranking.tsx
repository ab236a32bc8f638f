"use client";

import { formatMetric, type MetricKey, type RoundRow, type StopRule, type TrueMetrics } from "./dashboard-types";

interface Ranked {
  name: string;
  k: number;
  value: number;
  lo: number | null;
  hi: number | null;
  pBest: number | null;
  change: number | null;
}

/** The latest round's estimates of the chosen metric, best first, with what the stop rule says of each. */
export function rankClusterings(rounds: RoundRow[], metric: MetricKey, clusterings: { name: string; k: number }[]): { ranked: Ranked[]; round: RoundRow | null } {
  const done = rounds.filter((r) => r.status === "done" && r.estimates?.length);
  const last = done.at(-1) ?? null;
  const prev = done.at(-2) ?? null;
  if (!last) return { ranked: [], round: null };
  const ranked = clusterings.flatMap((c) => {
    const e = last.estimates!.find((x) => x.clustering === c.name && x.metric === metric);
    if (!e) return [];
    const before = prev?.estimates?.find((x) => x.clustering === c.name && x.metric === metric);
    return [{ name: c.name, k: c.k, value: e.value, lo: e.lo, hi: e.hi, pBest: e.pBest, change: before ? e.value - before.value : null }];
  });
  return { ranked: ranked.sort((a, b) => b.value - a.value), round: last };
}

/** Far projections only say "far": a power law fitted to two or three rounds is not worth more digits. */
const labelsNeeded = (n: number) => (n > 100_000 ? "> 100k labels" : `+${n.toLocaleString("en")} labels`);

export function ClusteringRanking({
  rounds,
  metric,
  clusterings,
  stopRule,
  trueMetrics,
  colors,
  selected,
  onSelect,
}: {
  rounds: RoundRow[];
  metric: MetricKey;
  clusterings: { name: string; k: number }[];
  stopRule: StopRule;
  trueMetrics: TrueMetrics | null;
  colors: Record<string, string>;
  selected: string | null;
  onSelect: (name: string) => void;
}) {
  const { ranked, round } = rankClusterings(rounds, metric, clusterings);
  if (!round) return <p className="px-4 py-6 text-sm text-slate-500">No estimates yet: the first round runs when the seed batch is labeled.</p>;
  // the interval bars share one scale (estimates included: an estimate may sit outside its bootstrap interval)
  const ends = ranked.flatMap((r) => [r.value, r.lo ?? r.value, r.hi ?? r.value, trueMetrics?.[r.name]?.[metric] ?? r.value]);
  const min = Math.min(...ends);
  const span = Math.max(1e-6, Math.max(...ends) - min);
  const x = (v: number) => ((v - min) / span) * 100;
  const showTruth = trueMetrics !== null;
  return (
    <table className="w-full text-sm tabular-nums" data-testid="ranking">
      <thead>
        <tr className="border-b border-slate-200 text-left text-[11px] uppercase tracking-wide text-slate-500">
          <th className="py-1.5 pl-4 pr-2 font-medium">Clustering</th>
          <th className="px-2 text-right font-medium">Estimate</th>
          <th className="px-2 font-medium">90% interval</th>
          <th className="w-24 px-2 font-medium" aria-label="Interval on a common scale" />
          {showTruth && <th className="px-2 text-right font-medium">True</th>}
          <th className="px-2 text-right font-medium">Δ</th>
          <th className="px-2 text-right font-medium">P(best)</th>
          <th className="py-1.5 pl-2 pr-4 font-medium">Stop rule</th>
        </tr>
      </thead>
      <tbody>
        {ranked.map((r) => {
          const stop = stopRule[r.name]?.[metric];
          const truth = trueMetrics?.[r.name]?.[metric];
          return (
            <tr
              key={r.name}
              data-testid="ranking-row"
              data-clustering={r.name}
              onClick={() => onSelect(r.name)}
              className={`cursor-pointer whitespace-nowrap border-b border-slate-100 last:border-0 ${selected === r.name ? "bg-indigo-50/70" : "hover:bg-slate-50"}`}
            >
              <td className="py-2 pl-4 pr-2" title={`${r.k} clusters`}>
                <span className="mr-2 inline-block h-2.5 w-2.5 rounded-full align-middle" style={{ background: colors[r.name] }} />
                <span className="font-mono text-[13px]">{r.name}</span>
              </td>
              <td className="px-2 text-right font-semibold text-slate-900" data-testid="estimate">
                {formatMetric(r.value)}
              </td>
              <td className="px-2 text-xs text-slate-500" data-testid="interval">
                {r.lo !== null && r.hi !== null ? `[${formatMetric(r.lo)}, ${formatMetric(r.hi)}]` : "—"}
              </td>
              <td className="px-2">
                <svg width="100%" height="12" viewBox="0 0 100 12" preserveAspectRatio="none" aria-hidden className="block">
                  <line x1="0" x2="100" y1="6" y2="6" stroke="#e2e8f0" vectorEffect="non-scaling-stroke" />
                  {r.lo !== null && r.hi !== null && <rect x={x(r.lo)} width={Math.max(0.8, x(r.hi) - x(r.lo))} y="2" height="8" rx="1" fill={colors[r.name]} opacity="0.35" />}
                  <line x1={x(r.value)} x2={x(r.value)} y1="0" y2="12" stroke={colors[r.name]} strokeWidth="2" vectorEffect="non-scaling-stroke" />
                  {truth !== undefined && <line x1={x(truth)} x2={x(truth)} y1="0" y2="12" stroke="#0f172a" strokeDasharray="2 2" vectorEffect="non-scaling-stroke" />}
                </svg>
              </td>
              {showTruth && (
                <td className="px-2 text-right text-xs text-slate-500" title="from the reference labels">
                  {formatMetric(truth)}
                </td>
              )}
              <td className={`px-2 text-right text-xs ${r.change === null ? "text-slate-400" : r.change >= 0 ? "text-emerald-700" : "text-rose-700"}`}>
                {r.change === null ? "—" : `${r.change >= 0 ? "+" : "−"}${Math.abs(r.change).toFixed(3)}`}
              </td>
              <td className="px-2 text-right text-xs">{r.pBest === null ? "—" : `${Math.round(r.pBest * 100)}%`}</td>
              <td className="py-2 pl-2 pr-4 text-xs">
                {!stop ? (
                  <span className="text-slate-400">—</span>
                ) : stop.converged ? (
                  <span className="rounded bg-emerald-100 px-1.5 py-0.5 font-medium text-emerald-800">converged</span>
                ) : (
                  <span className="text-slate-600" title={`interval width ${stop.width.toFixed(3)}; the rule stops below 0.02 with a move under 0.01 over 3 rounds`}>
                    {stop.labelsStillNeeded === null ? "not shrinking" : stop.labelsStillNeeded === 0 ? "narrow; steadying" : labelsNeeded(stop.labelsStillNeeded)}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={showTruth ? 8 : 7} className="px-4 pb-3 pt-3 text-[11px] leading-relaxed text-slate-500">
            Estimate: labels + the surrogate&apos;s pseudo-labels. Interval and P(best): 90% bootstrap over the labels with pseudo-labels drawn from the
            surrogate, so early on an interval may not contain its estimate. Stop rule: interval narrower than 0.02 and a move under 0.01 over the last 3
            rounds; the labels still needed come from the interval widths so far.
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
