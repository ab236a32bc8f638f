"use client";

import { estimatorSummary } from "@/lib/cereal/method/estimator-summaries";
import type { ClusteringRanking as RankingView } from "@/lib/server/evaluation/ranking";
import { formatMetric } from "@/app/components/metrics";
import type { StopRule, TrueMetrics } from "./dashboard-types";
import { SeriesGlyph, type SeriesStyle } from "../../../../components/series-style";
import { formatScore, LABEL_FREE_MEASURES, measureValue, type LabelFreeMeasure, type LabelFreeView } from "./use-label-free";

interface Ranked {
  name: string;
  k: number;
  value: number;
  lo: number | null;
  hi: number | null;
  pBest: number | null;
  change: number | null;
}

/** one clickable clustering row of either ranking table */
function RankingRow({ name, selected, onSelect, children }: { name: string; selected: boolean; onSelect: (name: string) => void; children: React.ReactNode }) {
  return (
    <tr
      data-testid="ranking-row"
      data-clustering={name}
      onClick={() => onSelect(name)}
      className={`cursor-pointer whitespace-nowrap border-b border-slate-100 last:border-0 ${selected ? "bg-indigo-50/40" : "hover:bg-slate-50"}`}
    >
      {children}
    </tr>
  );
}

/** Far projections only say "far" (a clusterwise project's never exceed its unlabeled items; a pairwise project's pool of pairs has no end): a width law fitted to a few rounds is not worth more digits. */
const labelsNeeded = (n: number) => (n > 100_000 ? "> 100k labels" : `+${n.toLocaleString("en")} labels`);

export function ClusteringRanking({
  ranking,
  stopRule,
  trueMetrics,
  styles,
  selected,
  onSelect,
  labelFree,
  measure,
}: {
  /** the ranking as the server computed it (GET /ranking) */
  ranking: RankingView;
  stopRule: StopRule;
  trueMetrics: TrueMetrics | null;
  styles: Record<string, SeriesStyle>;
  selected: string | null;
  onSelect: (name: string) => void;
  labelFree: LabelFreeView;
  measure: LabelFreeMeasure;
}) {
  const { metric, round } = ranking;
  const summary = round?.estimator ? estimatorSummary(round.estimator) : null;
  const scores = new Map(ranking.rows.map((r) => [r.name, r.labelFree]));
  // estimated rows first (best first), then the clusterings the latest round does not cover, by ACE (the server's order)
  const rows: Ranked[] = ranking.rows.map((r) => ({ name: r.name, k: r.k, value: r.estimate?.value ?? NaN, lo: r.estimate?.lo ?? null, hi: r.estimate?.hi ?? null, pBest: r.estimate?.pBest ?? null, change: r.estimate?.change ?? null }));
  const ranked = rows.filter((r) => !Number.isNaN(r.value));
  const { digits } = LABEL_FREE_MEASURES.find((m) => m.key === measure)!;
  const labelFreeCell = (name: string, which: "paired" | "ace") => {
    if (labelFree.state === "computing") return <span className="text-slate-500">…</span>;
    if (labelFree.state !== "ready") return <span className="text-slate-500">—</span>;
    return formatScore(measureValue(measure, scores.get(name)?.[which] ?? null), digits);
  };
  const labelFreeCells = (name: string) => (
    <>
      <td className="border-l border-slate-100 px-1.5 text-right text-xs text-slate-600" data-testid="paired-score">
        {labelFreeCell(name, "paired")}
      </td>
      <td className="px-1.5 text-right text-xs font-medium text-slate-800" data-testid="ace-score">
        {labelFreeCell(name, "ace")}
      </td>
    </>
  );
  const labelFreeHeads = (
    <>
      <th className="border-l border-slate-100 px-1.5 text-right font-medium" title="the internal measure in the clustering's own embedding space">
        Paired
      </th>
      <th className="px-1.5 text-right font-medium" title="ACE: the measure across the embedding spaces that agree, weighted by PageRank">
        ACE
      </th>
    </>
  );
  // the row takes a click anywhere; this button makes the same choice reachable by keyboard
  const nameButton = (name: string) => (
    <button type="button" aria-pressed={selected === name} onClick={() => onSelect(name)} className="rounded-sm text-left">
      <SeriesGlyph style={styles[name]} />
      <span className="font-mono text-[13px]">{name}</span>
    </button>
  );

  if (!round)
    return (
      <table className="w-full text-sm tabular-nums" data-testid="ranking">
        <thead>
          <tr className="border-b border-slate-200 text-left text-[11px] uppercase tracking-wide text-slate-500">
            <th className="py-1.5 pl-4 pr-2 font-medium">Clustering (label-free order)</th>
            <th className="px-2 text-right font-medium">k</th>
            <th className="px-2 font-medium">Space</th>
            {labelFreeHeads}
            <th className="w-4" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <RankingRow key={r.name} name={r.name} selected={selected === r.name} onSelect={onSelect}>
              <td className="py-1.5 pl-4 pr-2">
                {nameButton(r.name)}
              </td>
              <td className="px-2 text-right text-xs text-slate-600">{r.k}</td>
              <td className="px-2 font-mono text-xs text-slate-500">{scores.get(r.name)?.space ?? "—"}</td>
              {labelFreeCells(r.name)}
              <td />
            </RankingRow>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={6} className="px-4 pb-3 pt-3 text-[11px] leading-relaxed text-slate-500">
              No estimates yet: the first round runs when the seed batch is labeled. Until then clusterings are ranked without labels, by their ACE score.
            </td>
          </tr>
        </tfoot>
      </table>
    );
  // the interval bars share one scale (estimates included: an estimate may sit outside its bootstrap interval)
  const ends = ranked.flatMap((r) => [r.value, r.lo ?? r.value, r.hi ?? r.value, trueMetrics?.[r.name]?.[metric] ?? r.value]);
  const min = Math.min(...ends);
  const span = Math.max(1e-6, Math.max(...ends) - min);
  const x = (v: number) => ((v - min) / span) * 100;
  const showTruth = trueMetrics !== null;
  return (
    // long candidate names can still outgrow a narrow window: the table scrolls inside its card
    <div className="overflow-x-auto">
      <table className="w-full text-sm tabular-nums" data-testid="ranking">
        <thead>
          <tr className="border-b border-slate-200 text-left text-[11px] uppercase tracking-wide text-slate-500">
            <th className="py-1.5 pl-4 pr-1.5 font-medium">Clustering</th>
            <th className="px-1.5 text-right font-medium">Estimate</th>
            <th className="px-1.5 font-medium">90% interval</th>
            <th className="w-16 min-w-14 px-1.5 font-medium" aria-label="Interval on a common scale" />
            {showTruth && <th className="px-1.5 text-right font-medium">True</th>}
            <th className="px-1.5 text-right font-medium">Δ</th>
            <th className="px-1.5 text-right font-medium">P(best)</th>
            {labelFreeHeads}
            <th className="py-1.5 pl-1.5 pr-4 font-medium">Stop rule</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const stop = stopRule[r.name]?.[metric];
            const truth = trueMetrics?.[r.name]?.[metric];
            return (
              <RankingRow key={r.name} name={r.name} selected={selected === r.name} onSelect={onSelect}>
                <td className="py-2 pl-4 pr-1.5" title={`${r.k} clusters`}>
                  {nameButton(r.name)}
                </td>
                <td className="px-1.5 text-right font-semibold text-slate-900" data-testid="estimate">
                  {formatMetric(r.value)}
                </td>
                <td className="px-1.5 text-xs text-slate-500" data-testid="interval">
                  {r.lo !== null && r.hi !== null ? `[${formatMetric(r.lo)}, ${formatMetric(r.hi)}]` : "—"}
                </td>
                <td className="px-1.5">
                  <svg width="100%" height="12" viewBox="0 0 100 12" preserveAspectRatio="none" aria-hidden className="block">
                    <line x1="0" x2="100" y1="6" y2="6" stroke="#e2e8f0" vectorEffect="non-scaling-stroke" />
                    {r.lo !== null && r.hi !== null && <rect x={x(r.lo)} width={Math.max(0.8, x(r.hi) - x(r.lo))} y="2" height="8" rx="1" fill={styles[r.name].color} opacity="0.35" />}
                    {!Number.isNaN(r.value) && <line x1={x(r.value)} x2={x(r.value)} y1="0" y2="12" stroke={styles[r.name].color} strokeWidth="2" vectorEffect="non-scaling-stroke" />}
                    {truth !== undefined && <line x1={x(truth)} x2={x(truth)} y1="0" y2="12" stroke="#0f172a" strokeDasharray="2 2" vectorEffect="non-scaling-stroke" />}
                  </svg>
                </td>
                {showTruth && (
                  <td className="px-1.5 text-right text-xs text-slate-500" title="from the reference labels">
                    {formatMetric(truth)}
                  </td>
                )}
                <td className={`px-1.5 text-right text-xs ${r.change === null ? "text-slate-500" : r.change >= 0 ? "text-emerald-700" : "text-rose-700"}`}>
                  {r.change === null ? "—" : `${r.change >= 0 ? "+" : "−"}${Math.abs(r.change).toFixed(3)}`}
                </td>
                <td className="px-1.5 text-right text-xs">{r.pBest === null ? "—" : `${Math.round(r.pBest * 100)}%`}</td>
                {labelFreeCells(r.name)}
                <td className="py-2 pl-1.5 pr-4 text-xs">
                  {!stop ? (
                    <span className="text-slate-500">—</span>
                  ) : stop.converged ? (
                    <span className="rounded bg-emerald-100 px-1.5 py-0.5 font-medium text-emerald-800">converged</span>
                  ) : (
                    <span className="text-slate-600" title={`interval width ${stop.width.toFixed(3)}; the rule stops below 0.02 with a move under 0.01 over 3 rounds`}>
                      {stop.labelsStillNeeded === null ? "not shrinking" : stop.labelsStillNeeded === 0 ? "narrow; steadying" : labelsNeeded(stop.labelsStillNeeded)}
                    </span>
                  )}
                </td>
              </RankingRow>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={showTruth ? 10 : 9} className="px-4 pb-3 pt-3 text-[11px] leading-relaxed text-slate-500">
              {summary && (
                <span data-testid="estimator-summary">
                  Estimate ({round?.estimator}): {summary.estimate} Interval and P(best): {summary.interval}{" "}
                </span>
              )}
              Stop rule: interval narrower than 0.02 and a move under 0.01 over the last 3 rounds; the labels still needed come from the interval widths
              so far and the items left to label. Paired and ACE need no labels: a clustering without an estimate is new since the last round and ranks by ACE until the next.
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
