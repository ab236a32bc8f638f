"use client";

const EXPORTS = [
  { kind: "labels", format: "csv", label: "Labels (CSV)" },
  { kind: "labels", format: "jsonl", label: "Labels (JSONL)" },
  { kind: "labels", format: "parquet", label: "Labels (Parquet)" },
  { kind: "items", format: "csv", label: "Items + pseudo-labels (CSV)" },
  { kind: "estimates", format: null, label: "Estimate history (CSV)" },
  { kind: "config", format: null, label: "Configuration (JSON)" },
  { kind: "report", format: null, label: "Report: figures, tables, PDF (.zip)" },
] as const;

/** Esc closes the open menu and puts focus back on its button, as in any menu. */
function closeOnEscape(event: React.KeyboardEvent<HTMLDetailsElement>) {
  const details = event.currentTarget;
  if (event.key !== "Escape" || !details.open) return;
  details.open = false;
  details.querySelector("summary")?.focus();
}

/** The owner's downloads, streamed by the exports API (a plain link, so the browser saves the file). */
export function ExportMenu({ projectId }: { projectId: string }) {
  return (
    <details className="relative" onKeyDown={closeOnEscape}>
      <summary className="cursor-pointer list-none rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500">Export ▾</summary>
      <ul className="absolute right-0 z-20 mt-1 w-60 rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg">
        {EXPORTS.map((e) => (
          <li key={e.label}>
            <a href={`/api/projects/${projectId}/exports/${e.kind}${e.format ? `?format=${e.format}` : ""}`} download onClick={(e) => e.currentTarget.closest("details")?.removeAttribute("open")} className="block px-3 py-1.5 text-slate-700 hover:bg-slate-50">
              {e.label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
