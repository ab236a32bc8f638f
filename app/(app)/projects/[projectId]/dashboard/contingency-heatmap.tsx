"use client";

import { useEffect, useState } from "react";
import { CellItems } from "./cell-items";
import { formatMetric } from "@/app/components/metrics";
import { heatmapShade } from "./heatmap-shade";

interface ContingencyView {
  clustering: string;
  k: number;
  classes: string[];
  source: { kind: "round" | "labels"; round: number | null };
  labeled: number;
  pseudoLabeled: number;
  cells: number[][];
  rowMaxima: number[][];
  associativity: number;
  peakiness: number;
  ap: number;
}

/**
 * Reference classes x clusters, counted over labels and the latest pseudo-labels. Shading is a
 * cell's share of its class; each class's largest cell is boxed (the AP metric's L_i): two classes
 * boxed in one column is what lowers associativity, a flat row what lowers peakiness. A cell opens
 * its items.
 */
export function ContingencyHeatmap({ projectId, clustering, version }: { projectId: string; clustering: string; version: string }) {
  const [view, setView] = useState<ContingencyView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosenCell, setSelected] = useState<{ clustering: string; c: number; k: number } | null>(null);
  const selected = chosenCell?.clustering === clustering ? chosenCell : null;
  useEffect(() => {
    let live = true;
    fetch(`/api/projects/${projectId}/contingency?clustering=${encodeURIComponent(clustering)}`)
      .then(async (r) => {
        const body = await r.json();
        if (!live) return;
        if (r.ok) {
          setView(body);
          setError(null);
        } else setError(body.error?.message ?? `The server answered ${r.status}.`);
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [projectId, clustering, version]);

  if (error) return <p className="p-4 text-sm text-rose-700">{error}</p>;
  if (!view || view.clustering !== clustering) return <p className="p-4 text-sm text-slate-500">Loading {clustering}…</p>;
  const total = view.labeled + view.pseudoLabeled;
  if (total === 0) return <p className="p-4 text-sm text-slate-500">No labels yet: the table fills as annotators label.</p>;
  return (
    <div data-testid="heatmap">
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-4 pb-2 text-xs text-slate-600">
        <span>
          A <b className="text-slate-900" data-testid="heatmap-a">{formatMetric(view.associativity)}</b>
        </span>
        <span>
          P <b className="text-slate-900" data-testid="heatmap-p">{formatMetric(view.peakiness)}</b>
        </span>
        <span>
          AP <b className="text-slate-900" data-testid="heatmap-ap">{formatMetric(view.ap)}</b>
        </span>
        <span className="ml-auto text-slate-500">
          {view.source.kind === "round" ? `round ${view.source.round}: ${view.labeled} labels + ${view.pseudoLabeled.toLocaleString("en")} pseudo-labels` : `${view.labeled} labels, no round yet`}
        </span>
      </div>
      <div className="max-h-[30rem] overflow-auto px-4 pb-3">
        <table className="border-separate border-spacing-0.5 text-[11px] tabular-nums">
          <thead>
            <tr>
              <th className="pr-2 text-right font-normal text-slate-500">class \ cluster</th>
              {view.cells[0]?.map((_, k) => (
                <th key={k} className="w-8 text-center font-normal text-slate-500">
                  {k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.cells.map((row, c) => {
              const sum = row.reduce((a, b) => a + b, 0);
              return (
                <tr key={c} data-testid="heatmap-row">
                  <th className="max-w-32 truncate pr-2 text-right font-normal text-slate-600" title={view.classes[c]}>
                    {view.classes[c]}
                  </th>
                  {row.map((v, k) => {
                    const share = sum ? v / sum : 0;
                    const shade = heatmapShade(share);
                    const boxed = view.rowMaxima[c].includes(k);
                    const chosen = selected?.c === c && selected.k === k;
                    return (
                      <td
                        key={k}
                        data-boxed={boxed || undefined}
                        className={`h-6 w-8 rounded-sm p-0 text-center ${boxed ? "outline-2 -outline-offset-2 outline-slate-900" : ""} ${chosen ? "ring-2 ring-amber-400" : ""}`}
                        style={v ? { background: `rgb(${shade.background.join(", ")})`, color: shade.text } : { background: "#f8fafc" }}
                      >
                        {v ? (
                          <button
                            type="button"
                            aria-pressed={chosen}
                            onClick={() => setSelected(chosen ? null : { clustering, c, k })}
                            // the description says in words what the box and the shade show
                            title={`${view.classes[c]} in cluster ${k}: ${v} (${Math.round(share * 100)}% of the class${boxed ? ", its largest cell" : ""}). Show its items.`}
                            className="h-full w-full cursor-pointer rounded-sm hover:ring-2 hover:ring-amber-300"
                          >
                            {v}
                          </button>
                        ) : null}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {selected && view.cells[selected.c]?.[selected.k] ? (
        <CellItems
          projectId={projectId}
          clustering={clustering}
          classIndex={selected.c}
          className={view.classes[selected.c]}
          cluster={selected.k}
          version={version}
          onClose={() => setSelected(null)}
        />
      ) : null}
    </div>
  );
}
