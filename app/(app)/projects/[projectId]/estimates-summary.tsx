import Link from "next/link";
import { projectSnapshot } from "@/lib/server/live/events";
import type { SessionUser } from "@/lib/server/auth/session";

/**
 * The project page's view of the estimates: owners get the way to the dashboard; annotators see
 * the latest NMI of each clustering only where the owner allowed it (the snapshot withholds them
 * otherwise), so the page says nothing about estimates they may not see.
 */
export async function EstimatesSummary({ user, projectId, owner }: { user: SessionUser; projectId: string; owner: boolean }) {
  const snapshot = await projectSnapshot(user, projectId);
  if (!owner && !snapshot.estimates) return null;
  const rows = Object.entries(snapshot.estimates ?? {})
    .map(([name, metrics]) => ({ name, ...metrics.nmi }))
    .filter((r) => r.value !== undefined)
    .sort((a, b) => b.value - a.value);
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5" aria-label="Estimates" data-testid="estimates-summary">
      <div className="flex items-baseline justify-between">
        <h2 className="font-semibold">Estimates</h2>
        {owner && (
          <Link href={`/projects/${projectId}/dashboard`} className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
            Open the dashboard →
          </Link>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No estimates yet: they appear after the first round.</p>
      ) : (
        <table className="mt-2 w-full max-w-lg text-sm tabular-nums">
          <caption className="pb-1 text-left text-xs text-slate-500">
            {snapshot.estimatesRound?.interim
              ? `NMI of round ${snapshot.estimatesRound.index} (${snapshot.estimatesRound.nLabels} labels), interim — model ${snapshot.estimatesRound.model}, final estimate training; 90% interval`
              : `NMI after round ${snapshot.estimatesRound?.index} (${snapshot.estimatesRound?.nLabels} labels), 90% interval`}
          </caption>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name} className="border-t border-slate-100">
                <td className="py-1.5 font-mono">{r.name}</td>
                <td className="text-right font-medium">{r.value.toFixed(3)}</td>
                <td className="text-right text-slate-500">{r.lo !== null && r.hi !== null ? `[${r.lo.toFixed(3)}, ${r.hi.toFixed(3)}]` : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
