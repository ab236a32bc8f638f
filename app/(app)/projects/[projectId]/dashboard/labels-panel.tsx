"use client";

import { useCallback, useEffect, useState } from "react";
import { apiJson } from "@/app/components/api";
import type { ItemView } from "@/lib/server/labeling/item-view";
import { formatMetric } from "@/app/components/metrics";
import { ItemThumb } from "./item-thumb";

interface Verification {
  verifiedLabels: number;
  answersPerLabel: number | null;
}

interface Overview {
  mode: string;
  overlap: number;
  classes: { value: string; name: string; count: number }[];
  annotators: ({ userId: string; name: string; email: string; labels: number; skips: number; unsure: number; timedAnswers: number; medianSeconds: number | null } & Verification)[];
  answerTime: { mode: string; timedAnswers: number; medianSeconds: number | null };
  verification: Verification;
  agreement: { method: "cohen" | "krippendorff"; value: number | null; units: number; raters: number; unanimous: number } | null;
  recent: {
    page: number;
    pageSize: number;
    total: number;
    labels: { id: string; item: ItemView; itemB: ItemView | null; kind: string; classIndex: number | null; answer: string | null; value: string; annotator: string; usedByRound: number | null; createdAt: string }[];
  };
  ties: { taskId: string; item: ItemView; itemB: ItemView | null; votes: { annotator: string; value: string; name: string }[] }[];
}

const PAGE_SIZE = 12;

/** Labels as the owner audits them: distribution, who labeled, agreement, recent labels (correctable) and ties to resolve. */
export function LabelsPanel({ projectId, version }: { projectId: string; version: string }) {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [page, setPage] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setOverview(await apiJson<Overview>(`/api/projects/${projectId}/label-overview?page=${page}&pageSize=${PAGE_SIZE}`));
    } catch (e) {
      setError((e as Error).message);
    }
  }, [projectId, page]);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- loads on a new label (version) or page
    void load();
  }, [load, version]);

  const change = async (url: string, method: string, body: unknown) => {
    setError(null);
    try {
      await apiJson(url, { method, body });
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (!overview) return <p className="p-4 text-sm text-slate-500">{error ?? "Loading labels…"}</p>;
  const pairwise = overview.mode === "pairwise";
  const options = pairwise ? [{ value: "same", name: "same" }, { value: "different", name: "different" }] : overview.classes.map((c) => ({ value: c.value, name: c.name }));
  const valueBody = (value: string) => (pairwise ? { answer: value } : { classIndex: Number(value) });
  const maxCount = Math.max(1, ...overview.classes.map((c) => c.count));
  const pages = Math.max(1, Math.ceil(overview.recent.total / PAGE_SIZE));

  return (
    <div className="grid gap-6 p-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <div className="space-y-5">
        <section>
          <h3 className="text-[11px] font-medium uppercase tracking-wide text-slate-500">Class distribution</h3>
          <ul className="mt-2 space-y-1 text-xs" data-testid="class-distribution">
            {overview.classes.map((c) => (
              <li key={c.value} className="grid grid-cols-[7rem_1fr_2.5rem] items-center gap-2">
                <span className="truncate text-slate-700" title={c.name}>
                  {c.name}
                </span>
                <span className="h-2 rounded-sm bg-slate-100">
                  <span className="block h-2 rounded-sm bg-indigo-500" style={{ width: `${(c.count / maxCount) * 100}%` }} />
                </span>
                <span className="text-right tabular-nums text-slate-600">{c.count}</span>
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h3 className="text-[11px] font-medium uppercase tracking-wide text-slate-500">Annotators</h3>
          <table className="mt-1 w-full text-xs tabular-nums">
            <tbody>
              {overview.annotators.length === 0 && (
                <tr>
                  <td className="py-1 text-slate-500">No answers yet.</td>
                </tr>
              )}
              {overview.annotators.map((a) => (
                <tr key={a.userId} className="border-b border-slate-100 last:border-0" data-testid="annotator-row">
                  <td className="py-1 text-slate-800" title={a.email}>
                    {a.name}
                  </td>
                  <td className="text-right">{a.labels} labels</td>
                  <td className="text-right text-slate-500">{a.skips} skips</td>
                  <td className="text-right text-slate-500">{a.unsure} unsure</td>
                  <td className="text-right text-slate-500" title={`median over ${a.timedAnswers} timed answers`} data-testid="annotator-seconds">
                    {a.medianSeconds === null ? "–" : `${a.medianSeconds.toFixed(1)} s/answer`}
                  </td>
                  {overview.verification.verifiedLabels > 0 && (
                    <td className="text-right text-slate-500" title={`over ${a.verifiedLabels} labels given one class at a time`} data-testid="annotator-verify-answers">
                      {a.answersPerLabel === null ? "–" : `${a.answersPerLabel.toFixed(2)} answers/label`}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-600" data-testid="answer-time">
            {overview.answerTime.medianSeconds === null
              ? "No timed answers yet: the label page times each answer (visible time, idle stretches cut at 60 s)."
              : `Median ${overview.answerTime.medianSeconds.toFixed(1)} s per ${overview.answerTime.mode} answer over ${overview.answerTime.timedAnswers} timed answers (visible time, idle stretches cut at 60 s).`}
          </p>
          {overview.verification.answersPerLabel !== null && (
            <p className="mt-2 text-xs text-slate-600" data-testid="verify-answers">
              {`${overview.verification.verifiedLabels} labels given one class at a time took ${overview.verification.answersPerLabel.toFixed(2)} “same class?” answers each on average; their seconds above are per label, the whole chain of answers.`}
            </p>
          )}
          <p className="mt-2 text-xs text-slate-600" data-testid="agreement">
            {overview.agreement
              ? `${overview.agreement.method === "cohen" ? "Cohen's κ" : "Krippendorff's α"} ${formatMetric(overview.agreement.value, 2)} over ${overview.agreement.units} items labeled ${overview.agreement.raters === 2 ? "by both annotators" : `by ${overview.agreement.raters} annotators`}; ${Math.round(overview.agreement.unanimous * 100)}% unanimous.`
              : overview.overlap > 1
                ? "Agreement appears once an item has two labels."
                : "Overlap is 1: each item gets one label, so there is no agreement to measure."}
          </p>
        </section>
        {overview.ties.length > 0 && (
          <section data-testid="ties">
            <h3 className="text-[11px] font-medium uppercase tracking-wide text-rose-600">Ties awaiting you ({overview.ties.length})</h3>
            <ul className="mt-2 space-y-2">
              {overview.ties.map((t) => (
                <li key={t.taskId} className="flex items-center gap-3 rounded-md border border-rose-100 bg-rose-50/40 p-2 text-xs">
                  <ItemThumb item={t.item} />
                  {t.itemB && <ItemThumb item={t.itemB} />}
                  <div className="min-w-0 flex-1">
                    <div className="text-slate-600">{t.votes.map((v) => `${v.annotator}: ${v.name}`).join(" · ")}</div>
                    <div className="mt-1 flex flex-wrap gap-1">
                      {[...new Map(t.votes.map((v) => [v.value, v])).values()].map((v) => (
                        <button
                          key={v.value}
                          type="button"
                          onClick={() => change(`/api/projects/${projectId}/tasks/${t.taskId}/resolve`, "POST", valueBody(v.value))}
                          className="rounded border border-slate-300 bg-white px-1.5 py-0.5 hover:bg-slate-50"
                        >
                          {v.name}
                        </button>
                      ))}
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        )}
        {error && (
          <p className="text-xs text-rose-700" role="alert">
            {error}
          </p>
        )}
      </div>
      <section>
        <div className="flex items-center justify-between">
          <h3 className="text-[11px] font-medium uppercase tracking-wide text-slate-500">Recent labels ({overview.recent.total})</h3>
          <div className="flex items-center gap-1 text-xs text-slate-500">
            <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)} className="rounded px-1.5 hover:bg-slate-100 disabled:opacity-30" aria-label="Newer labels">
              ←
            </button>
            {page + 1}/{pages}
            <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)} className="rounded px-1.5 hover:bg-slate-100 disabled:opacity-30" aria-label="Older labels">
              →
            </button>
          </div>
        </div>
        <ul className="mt-2 grid grid-cols-2 gap-2 xl:grid-cols-3" data-testid="recent-labels">
          {overview.recent.labels.map((l) => (
            <li key={l.id} className="flex items-center gap-2 rounded-md border border-slate-200 p-1.5" data-testid="recent-label" data-item={l.item.index}>
              <ItemThumb item={l.item} />
              {l.itemB && <ItemThumb item={l.itemB} />}
              <div className="min-w-0 flex-1 text-xs">
                {l.kind === "label" ? (
                  <select
                    aria-label={`Label of item ${l.item.externalId}`}
                    value={pairwise ? (l.answer ?? "") : String(l.classIndex)}
                    onChange={(e) => change(`/api/projects/${projectId}/labels/${l.id}`, "PATCH", valueBody(e.target.value))}
                    className="w-full rounded border border-slate-200 bg-white py-0.5 text-xs"
                  >
                    {options.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.name}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="italic text-slate-500">{l.kind}</span>
                )}
                <div className="mt-0.5 truncate text-[11px] text-slate-500" title={`item ${l.item.externalId}`}>
                  {l.annotator}
                  {l.usedByRound !== null ? ` · r${l.usedByRound}` : ""}
                </div>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
