"use client";

import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMetric, type MetricKey, type RoundRow, type TrueMetrics } from "./dashboard-types";

interface Point {
  nLabels: number;
  round: number;
  maskRate: number | null;
  roundSeconds: number | null;
  [key: string]: number | null | [number, number];
}

/**
 * The chosen metric's estimate against the number of labels: a line per clustering with its 90%
 * interval as a band, a dot per round, and the true value dashed where reference labels exist.
 */
export function ConvergenceChart({
  rounds,
  metric,
  clusterings,
  colors,
  selected,
  trueMetrics,
}: {
  rounds: RoundRow[];
  metric: MetricKey;
  clusterings: string[];
  colors: Record<string, string>;
  selected: string | null;
  trueMetrics: TrueMetrics | null;
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
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
        <CartesianGrid stroke="#e2e8f0" strokeDasharray="2 4" />
        <XAxis
          dataKey="nLabels"
          type="number"
          domain={["dataMin", "dataMax"]}
          tick={{ fontSize: 11, fill: "#64748b" }}
          tickLine={false}
          label={{ value: "labels", position: "insideBottomRight", offset: -2, fontSize: 11, fill: "#94a3b8" }}
          allowDecimals={false}
        />
        <YAxis domain={domain} ticks={ticks} tick={{ fontSize: 11, fill: "#64748b" }} tickLine={false} width={44} tickFormatter={(v: number) => v.toFixed(2)} />
        <Tooltip content={<RoundTooltip clusterings={clusterings} colors={colors} />} />
        {clusterings.map((c) => (
          <Area
            key={`${c}-band`}
            dataKey={`${c}__band`}
            stroke="none"
            fill={colors[c]}
            fillOpacity={dim(c) ? 0.04 : 0.14}
            isAnimationActive={false}
            connectNulls
            activeDot={false}
          />
        ))}
        {clusterings.map((c) =>
          trueMetrics?.[c]?.[metric] !== undefined ? (
            <ReferenceLine key={`${c}-true`} y={trueMetrics[c][metric]} stroke={colors[c]} strokeDasharray="5 4" strokeOpacity={dim(c) ? 0.25 : 0.8} ifOverflow="extendDomain" />
          ) : null,
        )}
        {clusterings.map((c) => (
          <Line
            key={c}
            dataKey={c}
            name={c}
            stroke={colors[c]}
            strokeWidth={c === selected ? 2.5 : 1.5}
            strokeOpacity={dim(c) ? 0.35 : 1}
            dot={{ r: c === selected ? 3.5 : 2.5, fill: colors[c], strokeWidth: 0 }}
            activeDot={{ r: 5 }}
            isAnimationActive={false}
            connectNulls
          />
        ))}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

function RoundTooltip({ active, payload, clusterings, colors }: { active?: boolean; payload?: readonly { payload: Point }[]; clusterings: string[]; colors: Record<string, string> }) {
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
                  <span className="mr-1.5 inline-block h-2 w-2 rounded-full" style={{ background: colors[c] }} />
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
