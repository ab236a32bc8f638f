"use client";

import { METRICS, type MetricKey } from "./dashboard-types";

/** The metric picker of the dashboard's chart and the simulation page's curves. */
export function MetricTabs({ metric, onChange }: { metric: MetricKey; onChange: (metric: MetricKey) => void }) {
  return METRICS.map((m) => (
    <button
      key={m.key}
      type="button"
      role="tab"
      aria-selected={metric === m.key}
      onClick={() => onChange(m.key)}
      className={`rounded-md px-2.5 py-1 text-xs font-medium ${metric === m.key ? "bg-slate-900 text-white" : "text-slate-600 hover:bg-slate-200"}`}
    >
      {m.label}
    </button>
  ));
}
