import type { SessionState } from "./use-labeling-session";

export const QUEUE_TITLES: Record<Exclude<SessionState, "ok">, string> = {
  loading: "Fetching the next item",
  waiting: "Waiting for the next batch",
  paused: "Labeling is paused",
  budget_reached: "The label budget is reached",
  offline: "No connection to the server",
};

/** What fills the item's place when there is no item to show; same size, so nothing moves. */
export function QueueNotice({ state, message, width, height }: { state: Exclude<SessionState, "ok">; message: string | null; width: number | string; height: string }) {
  const busy = state === "loading" || state === "waiting" || state === "offline";
  return (
    <div
      data-testid="queue-notice"
      data-state={state}
      className="flex flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white/60 px-10 text-center"
      style={{ width, height, maxWidth: "100%" }}
    >
      {busy ? (
        <span aria-hidden className="h-6 w-6 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" />
      ) : (
        <span aria-hidden className="flex h-9 w-9 items-center justify-center rounded-full bg-indigo-50 text-lg text-indigo-600">
          {state === "budget_reached" ? "✓" : "Ⅱ"}
        </span>
      )}
      <p className="text-base font-semibold text-slate-900">{QUEUE_TITLES[state]}</p>
      <p className="max-w-sm text-sm text-slate-600">
        {state === "loading" ? "One moment…" : (message ?? "New items appear here by themselves.")}
        {state === "waiting" && " This page checks again every few seconds."}
      </p>
    </div>
  );
}
