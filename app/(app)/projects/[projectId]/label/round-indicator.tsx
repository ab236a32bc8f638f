import type { ProjectSnapshot } from "@/lib/server/live/events";
import { roundText } from "./workspace-announcements";

/**
 * While a round trains, a small pill with its progress. It never blocks: labeling goes on with
 * overflow tasks. The slot keeps its width when empty, so the header does not jump.
 */
export function RoundIndicator({ round }: { round: ProjectSnapshot["round"] }) {
  const progress = round?.progress ?? null;
  const share = progress?.step !== undefined && progress.total ? progress.step / progress.total : null;
  const text = roundText(round) + (round?.status === "running" && progress?.phase === "training" && share !== null ? ` · ${progress.step}/${progress.total}` : "");
  // not a live region: the steps change every second; the workspace announces the phases
  return (
    <div className="w-64">
      {round && (
        <div
          data-testid="round-indicator"
          data-status={round.status}
          className={`flex items-center gap-2 rounded-full px-3 py-1.5 text-xs font-medium ring-1 ${
            round.status === "failed" ? "bg-rose-50 text-rose-700 ring-rose-200" : "bg-indigo-50 text-indigo-700 ring-indigo-200"
          }`}
        >
          {round.status !== "failed" && <span aria-hidden className="h-2 w-2 shrink-0 animate-pulse rounded-full bg-indigo-500" />}
          <span className="truncate">{text}</span>
          {share !== null && round.status === "running" && (
            <span className="ml-auto h-1 w-12 shrink-0 overflow-hidden rounded-full bg-indigo-200">
              <span className="block h-full bg-indigo-600" style={{ width: `${share * 100}%` }} />
            </span>
          )}
        </div>
      )}
    </div>
  );
}
