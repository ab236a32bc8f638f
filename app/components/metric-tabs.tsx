"use client";

import { METRICS, type MetricKey } from "./metrics";

const STEP: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/**
 * The metric picker of the dashboard's chart and the simulation page's curves, as ARIA tabs: one
 * Tab stop (the chosen metric), the arrow keys, Home and End move between metrics and choose.
 */
export function MetricTabs({ metric, onChange, controls }: { metric: MetricKey; onChange: (metric: MetricKey) => void; controls: string }) {
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const step = STEP[event.key];
    if (!step) return;
    event.preventDefault();
    const next = step(METRICS.findIndex((m) => m.key === metric), METRICS.length);
    onChange(METRICS[next].key);
    event.currentTarget.querySelectorAll<HTMLButtonElement>("[role=tab]")[next]?.focus();
  };
  return (
    <div className="flex items-center gap-1" role="tablist" aria-label="Metric" onKeyDown={onKeyDown}>
      {METRICS.map((m) => (
        <button
          key={m.key}
          type="button"
          role="tab"
          aria-selected={metric === m.key}
          aria-controls={controls}
          tabIndex={metric === m.key ? 0 : -1}
          onClick={() => onChange(m.key)}
          className={`rounded-md px-2.5 py-1 text-xs font-medium ${metric === m.key ? "bg-slate-900 text-white" : "text-slate-600 hover:bg-slate-200"}`}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
}
