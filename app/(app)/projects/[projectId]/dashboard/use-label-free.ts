"use client";

import { useEffect, useState } from "react";

/** The internal measures ACE ranks by (lib/ace); Davies-Bouldin is the one where lower is better. */
export const LABEL_FREE_MEASURES = [
  { key: "silhouette", label: "Silhouette", lowerIsBetter: false, digits: 3 },
  { key: "davies-bouldin", label: "Davies-Bouldin", lowerIsBetter: true, digits: 3 },
  { key: "calinski-harabasz", label: "Calinski-Harabasz", lowerIsBetter: false, digits: 1 },
] as const;
export type LabelFreeMeasure = (typeof LABEL_FREE_MEASURES)[number]["key"];

/** One clustering's label-free scores as the API sends them: oriented higher-is-better (Davies-Bouldin negated). */
export interface LabelFreeScore {
  id: string;
  name: string;
  space: string | null;
  paired: number | null;
  pooled: number | null;
  ace: number | null;
}

export interface LabelFreeSpace {
  name: string;
  dip: number;
  pValue: number;
  multimodal: boolean;
  weight: number;
}

export type LabelFreeView =
  | { state: "computing" }
  | { state: "ready"; measure: LabelFreeMeasure; computedAt: string; spaces: LabelFreeSpace[]; clusterings: LabelFreeScore[]; outlierSpaces: string[] }
  | { state: "unavailable"; reason: string }
  | { state: "error"; message: string };

/** A score in the measure's own units, the way a researcher reads it (Davies-Bouldin back to positive). */
export function measureValue(measure: LabelFreeMeasure, oriented: number | null): number | null {
  if (oriented === null) return null;
  return LABEL_FREE_MEASURES.find((m) => m.key === measure)!.lowerIsBetter ? -oriented : oriented;
}

/** A score with the measure's digits; a value that rounds to zero shows as 0, not -0.000. */
export function formatScore(value: number | null, digits: number): string {
  if (value === null || !Number.isFinite(value)) return "—";
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/** The poll interval while the worker scores the clusterings (seconds of work for a few thousand items). */
const POLL_MS = 1500;

/**
 * The label-free scores of the project's clusterings for one measure. The server answers
 * "computing" while its worker job runs, so this polls until a result arrives; a changed set of
 * clusterings (a new candidate) makes the server's cached result stale and starts over.
 */
export function useLabelFree(projectId: string, measure: LabelFreeMeasure, clusteringsKey: string): LabelFreeView {
  const key = `${measure}|${clusteringsKey}`;
  const [stored, setStored] = useState<{ key: string; view: LabelFreeView } | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    // the server queues a fresh job when the last one ended without a result: two such restarts
    // mean the job keeps failing, and polling on would only keep the worker busy with it
    const jobs = new Set<string>();
    const poll = async () => {
      let view: LabelFreeView;
      try {
        const response = await fetch(`/api/projects/${projectId}/label-free?measure=${measure}`, { method: "POST" });
        const data = await response.json();
        if (!response.ok) view = { state: "error", message: data?.error?.message ?? `The server answered ${response.status}.` };
        else if (data.state === "ready") view = data;
        else if (data.state === "unavailable") view = { state: "unavailable", reason: data.reason };
        else {
          jobs.add(data.jobId);
          view = jobs.size > 2 ? { state: "error", message: "The label-free job failed twice; the worker's log says why." } : { state: "computing" };
        }
      } catch (e) {
        view = { state: "error", message: (e as Error).message };
      }
      if (cancelled) return;
      setStored({ key, view });
      if (view.state === "computing") timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [projectId, measure, key]);

  // a result for another measure or another set of clusterings is not shown while the new one loads
  return stored?.key === key ? stored.view : { state: "computing" };
}
