/** Whether every answer reached the server; fixed width, so the header never reflows. */
export function SaveStatus({ unsaved, retrying }: { unsaved: number; retrying: boolean }) {
  const tone = retrying ? "text-amber-700" : unsaved ? "text-slate-500" : "text-emerald-700";
  const dot = retrying ? "bg-amber-500" : unsaved ? "bg-slate-400 animate-pulse" : "bg-emerald-500";
  const text = retrying
    ? `Connection trouble: ${unsaved} waiting, retrying`
    : unsaved
      ? `Saving ${unsaved}…`
      : "All answers saved";
  return (
    <p data-testid="save-status" data-unsaved={unsaved} className={`flex w-52 items-center gap-2 text-xs font-medium ${tone}`}>
      <span aria-hidden className={`h-2 w-2 shrink-0 rounded-full ${dot}`} />
      <span className="truncate">{text}</span>
    </p>
  );
}
