/** A labeled count with a thin bar; fixed width so changing numbers never shift the header. */
export function ProgressMeter({ label, value, total, detail, testId }: { label: string; value: number | null; total: number | null; detail?: string; testId: string }) {
  const share = value !== null && total ? Math.min(1, value / total) : 0;
  return (
    <div className="w-44" data-testid={testId}>
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="font-medium text-slate-500">{label}</span>
        <span className="font-mono text-slate-800 tabular-nums">
          {value === null || total === null ? "–" : `${value.toLocaleString("en")} / ${total.toLocaleString("en")}`}
        </span>
      </div>
      <div
        className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total ?? 0}
        aria-valuenow={value ?? 0}
      >
        <div className="h-full rounded-full bg-indigo-500 transition-[width] duration-300" style={{ width: `${share * 100}%` }} />
      </div>
      <p className="mt-1 h-4 truncate text-[11px] text-slate-500">{detail}</p>
    </div>
  );
}
