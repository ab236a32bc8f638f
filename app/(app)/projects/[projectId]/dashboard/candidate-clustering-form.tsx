"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { apiJson } from "@/app/components/api";

interface CandidateJob {
  id: string;
  name: string;
  method: string;
  k: number;
  space: string | null;
  status: string;
  progress: { stage?: string } | null;
  error: string | null;
  outcome: { clusteringId: string; k: number | null; seconds: number | null } | null;
}

interface CandidateView {
  spaces: string[];
  defaultSpace: string | null;
  jobs: CandidateJob[];
}

const METHODS = [
  { key: "kmeans", label: "k-means" },
  { key: "spectral", label: "spectral" },
] as const;

/** the worker runs k-means on a few thousand items in about a second: poll at that pace while one runs */
const POLL_MS = 1000;
/** the form shows the few latest runs; earlier ones are rows of the ranking by now */
const SHOWN_JOBS = 3;

const active = (job: CandidateJob) => job.status === "queued" || job.status === "running";

function JobLine({ job }: { job: CandidateJob }) {
  return (
    <li className="flex items-baseline gap-2" data-testid="candidate-job" data-status={job.status} data-name={job.name}>
      <span className="font-mono text-slate-700">{job.name}</span>
      {job.status === "queued" && <span className="text-slate-500">queued{job.error ? ` (retrying: ${job.error})` : ""}</span>}
      {job.status === "running" && <span className="text-indigo-700">{job.progress?.stage ?? "running"}…</span>}
      {job.status === "done" && (
        <span className="text-emerald-700">
          added{job.outcome?.k !== null && job.outcome?.k !== undefined ? `, ${job.outcome.k} clusters` : ""}
          {job.outcome?.seconds !== null && job.outcome?.seconds !== undefined ? ` in ${job.outcome.seconds.toFixed(2)} s` : ""}
        </span>
      )}
      {job.status === "failed" && <span className="text-rose-700">failed: {job.error}</span>}
      {job.status === "cancelled" && <span className="text-slate-500">cancelled</span>}
    </li>
  );
}

/**
 * Makes a test clustering in the app (lib/server/projects/candidate-clusterings): k-means or spectral on one
 * embedding space, run by the worker. A finished run calls onAdded, so the page reloads its
 * clusterings; the next round estimates the new one from the labels already given.
 */
export function CandidateClusteringForm({ projectId, defaultK, onAdded }: { projectId: string; defaultK: number; onAdded: () => void }) {
  const [view, setView] = useState<CandidateView | null>(null);
  const [space, setSpace] = useState<string | null>(null);
  const [method, setMethod] = useState<string>("kmeans");
  const [k, setK] = useState(defaultK);
  const [seed, setSeed] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // the runs already finished when this page loaded: only a run finishing now adds a clustering
  const seenDone = useRef<Set<string> | null>(null);

  const load = useCallback(async () => {
    const next = await apiJson<CandidateView>(`/api/projects/${projectId}/clusterings/candidates`);
    const done = next.jobs.filter((j) => j.status === "done").map((j) => j.id);
    if (seenDone.current && done.some((id) => !seenDone.current!.has(id))) onAdded();
    seenDone.current = new Set([...(seenDone.current ?? []), ...done]);
    setView(next);
  }, [projectId, onAdded]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- loading the jobs from the server is this effect's purpose
    load().catch((e: Error) => setError(e.message));
  }, [load]);
  const running = view?.jobs.some(active) ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => load().catch((e: Error) => setError(e.message)), POLL_MS);
    return () => clearInterval(timer);
  }, [load, running]);

  // the project's main space when it is one of the named spaces; without named spaces, its embeddings (space left out)
  const initialSpace = view?.defaultSpace && view.spaces.includes(view.defaultSpace) ? view.defaultSpace : (view?.spaces[0] ?? null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setSubmitting(true);
    const chosen = space ?? initialSpace;
    try {
      await apiJson(`/api/projects/${projectId}/clusterings/candidates`, {
        method: "POST",
        body: { ...(chosen === null ? {} : { space: chosen }), method, k, seed },
      });
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  const field = "rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs";
  const spaces = view?.spaces ?? [];
  return (
    <div className="border-t border-slate-200 px-4 py-3 text-xs" data-testid="candidate-clusterings">
      <form onSubmit={submit} className="flex flex-wrap items-center gap-x-3 gap-y-2" aria-label="Candidate clustering">
        <span className="font-semibold text-slate-800">Add a candidate</span>
        <label className="flex items-center gap-1 text-slate-600">
          Space
          {spaces.length > 0 ? (
            <select aria-label="Space" value={space ?? initialSpace ?? undefined} onChange={(e) => setSpace(e.target.value)} className={`${field} font-mono`}>
              {spaces.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          ) : (
            <span className="font-mono text-slate-500">embeddings</span>
          )}
        </label>
        <label className="flex items-center gap-1 text-slate-600">
          Method
          <select aria-label="Method" value={method} onChange={(e) => setMethod(e.target.value)} className={field}>
            {METHODS.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1 text-slate-600">
          k
          <input aria-label="k" type="number" min={2} step={1} value={k} onChange={(e) => setK(Number(e.target.value))} className={`${field} w-14 tabular-nums`} />
        </label>
        <label className="flex items-center gap-1 text-slate-600">
          Seed
          <input aria-label="Seed" type="number" min={0} step={1} value={seed} onChange={(e) => setSeed(Number(e.target.value))} className={`${field} w-14 tabular-nums`} />
        </label>
        <button
          type="submit"
          disabled={submitting || view === null}
          className="rounded-md border border-slate-300 bg-white px-2.5 py-1 font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
        >
          Run
        </button>
      </form>
      <p className="mt-1 text-[11px] text-slate-500">The worker makes it and records its running time; the next round estimates it from the labels already given.</p>
      {error && (
        <p className="mt-2 text-rose-700" role="alert">
          {error}
        </p>
      )}
      {view && view.jobs.length > 0 && <ul className="mt-2 space-y-0.5">{view.jobs.slice(0, SHOWN_JOBS).map((job) => <JobLine key={job.id} job={job} />)}</ul>}
    </div>
  );
}
