"use client";

import { useState } from "react";
import { apiJson } from "@/app/components/api";
import type { TimedSnapshot } from "@/app/components/use-project-events";
import type { MetricKey } from "@/app/components/metrics";
import type { RoundRow } from "./dashboard-types";
import { InterimEstimates } from "./interim-estimates";
import { RESIDUAL_MIN_ACCURACY_PERCENT } from "@/lib/cereal/method/surrogate-health";

const seconds = (v: number | null) => (v === null ? "—" : v < 10 ? v.toFixed(1) : v.toFixed(0));
const STATUS_STYLE: Record<string, string> = {
  done: "bg-emerald-50 text-emerald-700",
  running: "bg-indigo-50 text-indigo-700",
  queued: "bg-slate-100 text-slate-600",
  failed: "bg-rose-50 text-rose-700",
  cancelled: "bg-amber-50 text-amber-700",
};

/** The round in progress (bar, backend, steps/s, cancel, its interim estimates) above the history with timings; failed rounds can be retried. */
export function RoundsPanel({
  projectId,
  snapshot,
  rounds,
  stepsPerSecond,
  metric,
  pairwise,
  onChanged,
}: {
  projectId: string;
  snapshot: TimedSnapshot | null;
  rounds: RoundRow[];
  stepsPerSecond: number | null;
  metric: MetricKey;
  /** a pairwise project: its rounds' surrogateWeak reads the pair answers (pairwise-steps.ts) */
  pairwise: boolean;
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (index: number, action: "retry" | "cancel") => {
    setBusy(`${action}-${index}`);
    setError(null);
    try {
      await apiJson(`/api/projects/${projectId}/rounds/${index}/${action}`, { method: "POST" });
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };
  const current = snapshot?.round ?? null;
  const progress = current?.progress ?? null;
  const fraction = progress?.step !== undefined && progress.total ? progress.step / progress.total : null;
  const backend = rounds.findLast((r) => r.backend)?.backend ?? null;
  const history = [...rounds].reverse();
  const latest = rounds.findLast((r) => r.status === "done") ?? null;

  return (
    <div className="space-y-3">
      <div className="px-4" data-testid="round-status">
        {current && current.status !== "failed" ? (
          <div>
            <div className="flex items-center justify-between text-xs">
              <span className="font-medium text-slate-800">
                Round {current.index} {current.status === "queued" ? "queued" : progress?.phase === "writing" ? "writing results" : "training"}
              </span>
              <span className="text-slate-500">
                {progress?.step !== undefined && progress.total ? `${progress.step}/${progress.total} steps` : ""}
                {stepsPerSecond !== null ? ` · ${stepsPerSecond.toFixed(1)} steps/s` : ""}
                {backend ? ` · ${backend}` : ""}
              </span>
            </div>
            <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-100">
              <div
                className={`h-full rounded-full bg-indigo-500 transition-[width] duration-500 ${fraction === null ? "w-1/3 animate-pulse" : ""}`}
                style={fraction === null ? undefined : { width: `${Math.round(fraction * 100)}%` }}
              />
            </div>
            <button
              type="button"
              onClick={() => act(current.index, "cancel")}
              disabled={busy !== null}
              className="mt-2 rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50 disabled:opacity-50"
            >
              Cancel round {current.index}
            </button>
            <InterimEstimates snapshot={snapshot} metric={metric} />
          </div>
        ) : (
          <p className="text-xs text-slate-500">
            {snapshot?.stages
              ? `Stages 0-${snapshot.stages.latest} drawn, ${snapshot.stages.settled < 0 ? "none" : `0-${snapshot.stages.settled}`} settled; the next round starts when ${snapshot.stages.batchSize} labels of settled stages are in (${snapshot.stages.fresh} now).`
              : "Waiting for the seed stage."}
            {backend ? ` Last backend: ${backend}.` : ""}
          </p>
        )}
        {error && <p className="mt-1 text-xs text-rose-700" role="alert">{error}</p>}
        {latest?.estimator && (
          <p className="mt-1 text-xs text-slate-500" data-testid="round-estimator">
            Estimates from the {latest.estimator} estimator
            {latest.surrogateAccuracy != null ? `; surrogate ${Math.round(latest.surrogateAccuracy * 100)}% right on new ${pairwise ? "pair answers" : "labels"}` : ""}
            {latest.surrogateEce != null && (
              <span title="Expected calibration error (10 bins) of the model that drew the newest stage, measured on that stage: how far its confidence is from its accuracy. 0 is calibrated.">
                , calibration error {latest.surrogateEce.toFixed(2)}
              </span>
            )}
            .
            {latest.acquisition === "residual" && (
              <span data-testid="round-residual" title={`The project draws by the predicted residual in rounds whose earlier models read at least ${RESIDUAL_MIN_ACCURACY_PERCENT}% right and calibrated (Settings: residual score where calibrated).`}>
                {" "}
                Its earlier models read accurate and calibrated, so the next stages draw by the predicted residual.
              </span>
            )}
          </p>
        )}
        {pairwise && latest && <PairwiseIntervalsNote latest={latest} />}
        {!pairwise && latest?.surrogateWeak && (
          <p className="mt-1 rounded bg-amber-50 px-2 py-1 text-xs text-amber-800" role="status" data-testid="surrogate-weak">
            The surrogate is weak: earlier rounds&apos; models got under 60% of the newly labeled items right. Pseudo-labels are
            unreliable here; the guarded and ppi estimators rely on the labels instead (guarded also corrects their small-sample
            bias and widens its intervals), argmax and soft estimates may be biased.
          </p>
        )}
      </div>
      <div className="max-h-64 overflow-y-auto">
        <table className="w-full text-xs tabular-nums">
          <thead className="sticky top-0 bg-white">
            <tr className="border-b border-slate-200 text-left text-[11px] uppercase tracking-wide text-slate-500">
              <th className="py-1 pl-4 font-medium">#</th>
              <th className="font-medium">Status</th>
              <th className="text-right font-medium">Labels</th>
              <th className="text-right font-medium">Mask</th>
              <th className="text-right font-medium">Train s</th>
              <th className="text-right font-medium">Write s</th>
              <th className="pr-4 text-right font-medium">Total s</th>
            </tr>
          </thead>
          <tbody>
            {history.length === 0 && (
              <tr>
                <td colSpan={7} className="px-4 py-3 text-slate-500">
                  No rounds yet.
                </td>
              </tr>
            )}
            {history.flatMap((r) => {
              const row = (
                <tr key={r.index} className="border-b border-slate-100" data-testid="round-row" data-status={r.status}>
                  <td className="py-1 pl-4 font-medium">{r.index}</td>
                  <td>
                    <span className={`rounded px-1.5 py-0.5 ${STATUS_STYLE[r.status] ?? "bg-slate-100"}`}>{r.status}</span>
                  </td>
                  <td className="text-right">{r.nLabels}</td>
                  <td className="text-right">{r.maskRate === null ? "—" : `${Math.round(r.maskRate * 100)}%`}</td>
                  <td className="text-right">{seconds(r.trainSeconds)}</td>
                  <td className="text-right">{seconds(r.writeSeconds)}</td>
                  <td className="pr-4 text-right">{seconds(r.roundSeconds)}</td>
                </tr>
              );
              if (r.status !== "failed" && r.status !== "cancelled") return [row];
              return [
                row,
                <tr key={`${r.index}-error`} className="border-b border-slate-100 bg-rose-50/40">
                  <td />
                  <td colSpan={5} className="py-1 text-rose-800">
                    {r.error ?? "No error recorded."}
                  </td>
                  <td className="pr-4 text-right">
                    <button
                      type="button"
                      onClick={() => act(r.index, "retry")}
                      disabled={busy !== null}
                      className="rounded bg-rose-600 px-2 py-0.5 font-medium text-white hover:bg-rose-700 disabled:opacity-50"
                    >
                      Retry
                    </button>
                  </td>
                </tr>,
              ];
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * Why a pairwise round's NMI, AMI and V-measure intervals span their whole range
 * (pair-count-ppi.ts pairCountIntervals): the models that drew the answered pairs have not been
 * shown to predict their answers, as in round 0, where none has drawn any yet.
 */
function PairwiseIntervalsNote({ latest }: { latest: RoundRow }) {
  if (!latest.surrogateWeak) return null;
  return (
    <p className="mt-1 rounded bg-amber-50 px-2 py-1 text-xs text-amber-800" role="status" data-testid="pairwise-intervals-note">
      {latest.index === 0
        ? "No model has drawn answered pairs yet, so none can be judged on answers it never saw."
        : "The surrogate is not yet shown to predict the pair answers: the models that drew the answered pairs did no better than chance on them, or too few of their uniform pairs are answered to tell (one-sided test at 5%)."}{" "}
      Until it does, the NMI, AMI and V-measure intervals span their whole range; the ARI and FMI intervals come from the answered pairs themselves.
    </p>
  );
}
