"use client";

import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MetricValues } from "@/lib/metrics";
import { formatMetric, METRICS, type MetricKey } from "./metrics";
import { SeriesGlyph, SeriesMarker, type SeriesStyle } from "./series-style";

/** What the chart reads of a round: a project's (the rounds API) or a simulation's, in one shape. */
export interface ChartRound {
  readonly index: number;
  readonly status: string;
  readonly nLabels: number;
  readonly maskRate: number | null;
  readonly roundSeconds: number | null;
  readonly estimates: readonly { clustering: string; metric: string; value: number; lo: number | null; hi: number | null }[] | null;
}
/** Each clustering's true value of every metric, from the reference labels. */
export type TrueValues = Readonly<Record<string, MetricValues>>;

interface Point {
  nLabels: number;
  round: number;
  maskRate: number | null;
  roundSeconds: number | null;
  [key: string]: number | null | [number, number];
}

/**
 * The chosen metric's estimate against the number of labels: a line per clustering with its 90%
 * interval as a band, a marker per round (each clustering its own shape), and the true value
 * dashed where reference labels exist. A table of the same numbers is its text alternative.
 */
export function ConvergenceChart({
  rounds,
  metric,
  clusterings,
  styles,
  selected,
  trueMetrics,
}: {
  rounds: readonly ChartRound[];
  metric: MetricKey;
  clusterings: string[];
  styles: Record<string, SeriesStyle>;
  selected: string | null;
  trueMetrics: TrueValues | null;
}) {
  const points: Point[] = rounds
    .filter((r) => r.status === "done" && r.estimates?.length)
    .map((r) => {
      const point: Point = { nLabels: r.nLabels, round: r.index, maskRate: r.maskRate, roundSeconds: r.roundSeconds };
      for (const e of r.estimates!) {
        if (e.metric !== metric) continue;
        point[e.clustering] = e.value;
        if (e.lo !== null && e.hi !== null) point[`${e.clustering}__band`] = [e.lo, e.hi];
      }
      return point;
    });
  if (!points.length) {
    return <div className="flex h-full items-center justify-center text-sm text-slate-500">Estimates appear here when the first round finishes.</div>;
  }
  const values = points.flatMap((p) => clusterings.flatMap((c) => [p[c], ...((p[`${c}__band`] as [number, number] | undefined) ?? [])])).filter((v): v is number => typeof v === "number");
  for (const c of clusterings) if (trueMetrics?.[c]?.[metric] !== undefined) values.push(trueMetrics[c][metric]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  // round the domain to a step that gives 4-6 readable ticks
  const step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25].find((s) => (hi - lo) / s <= 5) ?? 0.25;
  const domain: [number, number] = [Math.max(lo < 0 ? -1 : 0, Math.floor(lo / step) * step), Math.min(1, Math.ceil(hi / step) * step)];
  if (domain[1] - domain[0] < step) domain[1] = domain[0] + step;
  const ticks = Array.from({ length: Math.round((domain[1] - domain[0]) / step) + 1 }, (_, i) => Number((domain[0] + i * step).toFixed(4)));
  const dim = (c: string) => selected !== null && c !== selected;

  return (
    <>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid stroke="#e2e8f0" strokeDasharray="2 4" />
          <XAxis
            dataKey="nLabels"
            type="number"
            domain={["dataMin", "dataMax"]}
            tick={{ fontSize: 11, fill: "#64748b" }}
            tickLine={false}
            label={{ value: "labels", position: "insideBottomRight", offset: -2, fontSize: 11, fill: "#64748b" }}
            allowDecimals={false}
          />
          <YAxis domain={domain} ticks={ticks} tick={{ fontSize: 11, fill: "#64748b" }} tickLine={false} width={44} tickFormatter={(v: number) => v.toFixed(2)} />
          <Tooltip content={<RoundTooltip clusterings={clusterings} styles={styles} />} />
          {clusterings.map((c) => (
            <Area
              key={`${c}-band`}
              dataKey={`${c}__band`}
              stroke="none"
              fill={styles[c].color}
              fillOpacity={dim(c) ? 0.04 : 0.14}
              isAnimationActive={false}
              connectNulls
              activeDot={false}
            />
          ))}
          {clusterings.map((c) =>
            trueMetrics?.[c]?.[metric] !== undefined ? (
              <ReferenceLine key={`${c}-true`} y={trueMetrics[c][metric]} stroke={styles[c].color} strokeDasharray="5 4" strokeOpacity={dim(c) ? 0.25 : 0.8} ifOverflow="extendDomain" />
            ) : null,
          )}
          {clusterings.map((c) => (
            <Line
              key={c}
              dataKey={c}
              name={c}
              stroke={styles[c].color}
              strokeWidth={c === selected ? 2.5 : 1.5}
              strokeOpacity={dim(c) ? 0.35 : 1}
              dot={(p: { cx?: number; cy?: number; index: number }) => (
                <SeriesMarker key={p.index} style={styles[c]} cx={p.cx ?? 0} cy={p.cy ?? 0} r={c === selected ? 4.5 : 3.5} opacity={p.cy === undefined || p.cy === null ? 0 : dim(c) ? 0.35 : 1} />
              )}
              activeDot={(p: { cx?: number; cy?: number }) => <SeriesMarker style={styles[c]} cx={p.cx ?? 0} cy={p.cy ?? 0} r={6} />}
              isAnimationActive={false}
              connectNulls
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
      <EstimatesTable points={points} metric={metric} clusterings={clusterings} trueMetrics={trueMetrics} />
    </>
  );
}

/** The chart's numbers for a screen reader: a row per round, a column per clustering. */
function EstimatesTable({ points, metric, clusterings, trueMetrics }: { points: Point[]; metric: MetricKey; clusterings: string[]; trueMetrics: TrueValues | null }) {
  const label = METRICS.find((m) => m.key === metric)!.label;
  const cell = (p: Point, c: string) => {
    const band = p[`${c}__band`] as [number, number] | undefined;
    return typeof p[c] === "number" ? `${formatMetric(p[c] as number)}${band ? ` (90% interval ${formatMetric(band[0])} to ${formatMetric(band[1])})` : ""}` : "—";
  };
  return (
    <table className="sr-only">
      <caption>{label} estimate of each clustering by round</caption>
      <thead>
        <tr>
          <th scope="col">Labels</th>
          {clusterings.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {points.map((p) => (
          <tr key={p.round}>
            <th scope="row">{p.nLabels}</th>
            {clusterings.map((c) => (
              <td key={c}>{cell(p, c)}</td>
            ))}
          </tr>
        ))}
        {trueMetrics && (
          <tr>
            <th scope="row">true value</th>
            {clusterings.map((c) => (
              <td key={c}>{formatMetric(trueMetrics[c]?.[metric])}</td>
            ))}
          </tr>
        )}
      </tbody>
    </table>
  );
}

function RoundTooltip({ active, payload, clusterings, styles }: { active?: boolean; payload?: readonly { payload: Point }[]; clusterings: string[]; styles: Record<string, SeriesStyle> }) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload;
  const rows = clusterings.filter((c) => typeof p[c] === "number").sort((a, b) => (p[b] as number) - (p[a] as number));
  return (
    <div className="rounded-md border border-slate-200 bg-white/95 px-3 py-2 text-xs shadow-lg">
      <div className="mb-1 font-medium text-slate-900">
        Round {p.round} · {p.nLabels} labels
      </div>
      <table className="tabular-nums">
        <tbody>
          {rows.map((c) => {
            const band = p[`${c}__band`] as [number, number] | undefined;
            return (
              <tr key={c}>
                <td className="pr-2">
                  <SeriesGlyph style={styles[c]} />
                  <span className="font-mono">{c}</span>
                </td>
                <td className="pr-2 text-right font-medium">{formatMetric(p[c] as number)}</td>
                <td className="text-slate-500">{band ? `[${formatMetric(band[0])}, ${formatMetric(band[1])}]` : ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="mt-1 text-slate-500">
        mask rate {p.maskRate === null ? "—" : `${Math.round(p.maskRate * 100)}%`} · round {p.roundSeconds === null ? "—" : `${p.roundSeconds.toFixed(1)} s`}
      </div>
    </div>
  );
}
