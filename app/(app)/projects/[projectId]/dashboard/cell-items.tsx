"use client";

import { useEffect, useState } from "react";
import { apiJson } from "@/app/components/api";
import type { CellItem, CellPage } from "@/lib/server/labeling/items";
import { ItemThumb } from "./item-thumb";

const PAGE = 24;

/**
 * The items behind one cell of the contingency heatmap: what the clustering put in a cluster that
 * the labels (or the surrogate's pseudo-labels, with its confidence) call one class. It is where a
 * researcher sees why a clustering splits or merges a class.
 */
export function CellItems(props: { projectId: string; clustering: string; classIndex: number; className: string; cluster: number; version: string; onClose: () => void }) {
  const { projectId, clustering, classIndex, cluster, version } = props;
  const query = `clustering=${encodeURIComponent(clustering)}&cluster=${cluster}&class=${classIndex}&limit=${PAGE}`;
  const [pages, setPages] = useState<{ query: string; items: CellItem[]; next: number | null; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let live = true;
    apiJson<CellPage>(`/api/projects/${projectId}/items?${query}`)
      .then((page) => {
        if (!live) return;
        setPages({ query, ...page });
        setError(null);
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [projectId, query, version]);

  const more = async () => {
    if (!pages || pages.next === null) return;
    setLoading(true);
    try {
      const page = await apiJson<CellPage>(`/api/projects/${projectId}/items?${query}&after=${pages.next}`);
      setPages((p) => p && p.query === query ? { ...p, items: [...p.items, ...page.items], next: page.next, total: page.total } : p);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setLoading(false);
    }
  };

  const current = pages?.query === query ? pages : null;
  return (
    <section data-testid="cell-items" aria-label={`${props.className} in cluster ${cluster}`} className="mx-4 mb-4 rounded-lg border border-slate-200 bg-slate-50/60 p-3">
      <header className="flex items-baseline gap-3">
        <h3 className="text-xs font-medium text-slate-800">
          {props.className} in cluster {cluster}
          {current && <span className="font-normal text-slate-500"> · {current.total.toLocaleString("en")} items</span>}
        </h3>
        <span className="text-[11px] text-slate-500">green: a human label; grey: the surrogate&apos;s pseudo-label and its confidence</span>
        <button type="button" onClick={props.onClose} className="ml-auto rounded px-1.5 text-xs text-slate-500 hover:bg-slate-200 hover:text-slate-800" aria-label="Close the cell's items">
          ✕
        </button>
      </header>
      {error && (
        <p className="mt-2 text-xs text-rose-700" role="alert">
          {error}
        </p>
      )}
      {!current && !error && <p className="mt-2 text-xs text-slate-500">Loading items…</p>}
      {current && (
        <>
          <ul className="mt-2 flex flex-wrap gap-2">
            {current.items.map((item) => (
              <li key={item.index} data-testid="cell-item" data-labeled={item.labeled} className="flex w-20 flex-col items-center gap-0.5 text-[10px]">
                <ItemThumb item={item} size="large" />
                <span className="w-full truncate text-center text-slate-600" title={item.externalId}>
                  {item.externalId}
                </span>
                {item.labeled ? (
                  <span className="rounded bg-emerald-100 px-1 text-emerald-800">label</span>
                ) : (
                  <span className="rounded bg-slate-200 px-1 text-slate-700" title="the surrogate's probability for this class">
                    pseudo {item.confidence === null ? "" : `${Math.round(item.confidence * 100)}%`}
                  </span>
                )}
              </li>
            ))}
          </ul>
          {current.next !== null && (
            <button type="button" onClick={more} disabled={loading} className="mt-3 rounded-md border border-slate-300 bg-white px-3 py-1 text-xs text-slate-700 hover:bg-slate-100 disabled:opacity-50">
              {loading ? "Loading…" : `Show more (${(current.total - current.items.length).toLocaleString("en")} left)`}
            </button>
          )}
        </>
      )}
    </section>
  );
}
