"use client";

import { useCallback, useEffect, useState } from "react";
import { apiJson } from "@/app/components/api";
import { estimatorSummary } from "@/lib/cereal/method/estimator-summaries";
import { ConvergenceChart, type ChartRound } from "@/app/components/convergence-chart";
import { formatMetric, METRICS, type MetricKey } from "@/app/components/metrics";
import { MetricTabs } from "../../../../components/metric-tabs";
import { SeriesGlyph, seriesStyles, type SeriesStyle } from "../../../../components/series-style";

type Values = Record<MetricKey, number>;
interface Run {
  id: string;
  status: string;
  options: {
    mode?: string;
    pairDesign?: string;
    pairUniformShare?: number;
    acquisition: string;
    design?: string;
    estimator: string;
    fixmatch: boolean;
    trainerGuard?: boolean;
    seedSize: number;
    batch: number;
    budget: number;
    steps: number;
    warmSteps?: number | null;
    residualWhenCalibrated?: number | null;
    seed: number;
  };
  progress: { round: number; nLabels: number; budget: number } | null;
  summary: Summary | null;
  error: string | null;
  createdAt: string;
}
interface Summary {
  aec: Values;
  aecPer1000Labels: Values;
  aecByClustering: Record<string, { aec: Values; aecPer1000Labels: Values }>;
  finalAbsErr: Record<string, Values>;
  intervalCoverage: Values | null;
  rounds: number;
  nLabels: number;
}
interface SimRound {
  round: number;
  nLabels: number;
  estimate: Record<string, Values>;
  interval: Record<string, Record<MetricKey, [number, number]>> | null;
  pBest: Record<MetricKey, Record<string, number>> | null;
  true: Record<string, Values>;
  maskRate: number | null;
  roundSeconds: number | null;
}

/** The simulator's rounds in the chart's round shape, so the same chart draws a project's and a simulation's. */
function asChartRounds(rounds: SimRound[]): ChartRound[] {
  return rounds.map((r) => ({
    index: r.round,
    status: "done",
    nLabels: r.nLabels,
    maskRate: r.maskRate,
    roundSeconds: r.roundSeconds,
    estimates: Object.entries(r.estimate).flatMap(([clustering, values]) =>
      METRICS.map((m) => ({ clustering, metric: m.key, value: values[m.key], lo: r.interval?.[clustering]?.[m.key]?.[0] ?? null, hi: r.interval?.[clustering]?.[m.key]?.[1] ?? null, pBest: r.pBest?.[m.key]?.[clustering] ?? null })),
    ),
  }));
}

const field = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";

export function SimulationRuns({
  projectId,
  acquisitions,
  designs,
  estimators,
  recommended,
  pairDesigns,
  recommendedPairs,
  projectMode,
  n,
}: {
  projectId: string;
  acquisitions: string[];
  /** the designs each acquisition can draw with */
  designs: Record<string, string[]>;
  estimators: string[];
  /** the recommended configuration (lib/cereal/method/recommended.ts) */
  recommended: { acquisition: string; design: string; estimator: string; fixmatch: boolean; fixmatchSteps: number; fixmatchWarmSteps: number | null; residualWhenCalibrated: number | null; trainerGuard: boolean };
  /** pairwise simulations: the pair designs, the recommended one with its uniform share */
  pairDesigns: string[];
  recommendedPairs: { pairDesign: string; pairUniformShare: number };
  /** the project's annotation mode: the form starts with it (either mode can be simulated) */
  projectMode: string;
  n: number;
}) {
  const [runs, setRuns] = useState<Run[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [rounds, setRounds] = useState<SimRound[] | null>(null);
  const [metric, setMetric] = useState<MetricKey>("nmi");
  const [error, setError] = useState<string | null>(null);
  // design "" = the acquisition's design in the paper
  const [form, setForm] = useState({ acquisition: "hardnmi", design: "", estimator: "argmax", fixmatch: false, trainerGuard: false, seedSize: 50, batch: 50, budget: Math.min(300, n), steps: 256, warmSteps: 0, residualWhenCalibrated: 0, seed: 0 });
  const [pairForm, setPairForm] = useState({ mode: projectMode, ...recommendedPairs });
  const pairwise = pairForm.mode === "pairwise";

  const load = useCallback(async () => {
    const { simulations } = await apiJson<{ simulations: Run[] }>(`/api/projects/${projectId}/simulations`);
    setRuns(simulations);
    return simulations;
  }, [projectId]);

  // poll while a run is queued or running: simulations are rare and short-lived, a stream would be overkill
  const active = runs.some((r) => r.status === "queued" || r.status === "running");
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the first load, then polling while a run is active
    void load();
    if (!active) return;
    const timer = setInterval(() => void load(), 2000);
    return () => clearInterval(timer);
  }, [load, active]);

  const current = runs.find((r) => r.id === selected) ?? runs.find((r) => r.status === "done") ?? null;
  const currentId = current?.status === "done" ? current.id : null;
  useEffect(() => {
    if (!currentId) return;
    let live = true;
    apiJson<{ result: { rounds: SimRound[] } | null }>(`/api/projects/${projectId}/simulations/${currentId}`).then((r) => live && setRounds(r.result?.rounds ?? null));
    return () => {
      live = false;
    };
  }, [projectId, currentId]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      // warm steps 0: every round from scratch; gap 0: the acquisition in every round
      const { design, ...rest } = { ...form, warmSteps: form.warmSteps || null, residualWhenCalibrated: form.residualWhenCalibrated || null };
      const { seedSize, batch, budget, seed } = form;
      const body = pairwise ? { ...pairForm, seedSize, batch, budget, seed } : design ? { ...rest, design } : rest;
      const { id } = await apiJson<{ id: string }>(`/api/projects/${projectId}/simulations`, { method: "POST", body });
      setSelected(id);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const clusterings = rounds ? Object.keys(rounds[0]?.estimate ?? {}) : [];
  const styles = seriesStyles(clusterings);
  const num = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: Number(e.target.value) });

  return (
    <div className="space-y-4">
      <form onSubmit={submit} aria-label="New simulation" className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 text-xs text-slate-600">
        <label className="flex flex-col gap-1">
          Mode
          <select className={field} value={pairForm.mode} onChange={(e) => setPairForm({ ...pairForm, mode: e.target.value })}>
            <option value="clusterwise">clusterwise</option>
            <option value="pairwise">pairwise</option>
          </select>
        </label>
        {pairwise ? (
          <>
            <label className="flex flex-col gap-1">
              Pair design
              <select className={field} value={pairForm.pairDesign} onChange={(e) => setPairForm({ ...pairForm, pairDesign: e.target.value })}>
                {pairDesigns.map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1" title="Uncertain and anchor stages: the share drawn as uniform pairs">
              Uniform share
              <input type="number" min={0} max={1} step={0.05} className={`${field} w-20`} value={pairForm.pairUniformShare} onChange={(e) => setPairForm({ ...pairForm, pairUniformShare: Number(e.target.value) })} />
            </label>
          </>
        ) : (
          <>
            <label className="flex flex-col gap-1">
              Acquisition
              <select
                className={field}
                value={form.acquisition}
                onChange={(e) => setForm({ ...form, acquisition: e.target.value, design: designs[e.target.value]?.includes(form.design) ? form.design : "" })}
              >
                {acquisitions.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1">
              Design
              <select className={field} value={form.design} onChange={(e) => setForm({ ...form, design: e.target.value })}>
                <option value="">the paper&apos;s</option>
                {(designs[form.acquisition] ?? []).map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1">
              Estimator
              <select className={field} value={form.estimator} title={estimatorSummary(form.estimator)?.estimate} onChange={(e) => setForm({ ...form, estimator: e.target.value })}>
                {estimators.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </label>
          </>
        )}
        {(pairwise ? (["seedSize", "batch", "budget", "seed"] as const) : (["seedSize", "batch", "budget", "steps", "warmSteps", "residualWhenCalibrated", "seed"] as const)).map((key) => (
          <label key={key} className="flex flex-col gap-1">
            {{ seedSize: "Seed batch", batch: "Batch", budget: "Budget", steps: "Train steps", warmSteps: "Warm steps (0: off)", residualWhenCalibrated: "Residual-score gap (0: off)", seed: "Random seed" }[key]}
            <input
              type="number"
              min={key === "seed" || key === "warmSteps" || key === "residualWhenCalibrated" ? 0 : 1}
              max={key === "residualWhenCalibrated" ? 1 : undefined}
              step={key === "residualWhenCalibrated" ? 0.01 : 1}
              title={key === "residualWhenCalibrated" ? "Draw by the predicted residual in rounds whose earlier surrogates read calibrated within this gap between accuracy and confidence" : undefined}
              className={`${field} w-24`}
              value={form[key]}
              onChange={num(key)}
            />
          </label>
        ))}
        {!pairwise && (
          <>
            <label className="flex items-center gap-1.5 pb-1.5">
              <input type="checkbox" checked={form.fixmatch} onChange={(e) => setForm({ ...form, fixmatch: e.target.checked })} />
              FixMatch
            </label>
            <label className="flex items-center gap-1.5 pb-1.5" title="Train supervised instead of FixMatch while earlier models fail on the new labels">
              <input type="checkbox" checked={form.trainerGuard} onChange={(e) => setForm({ ...form, trainerGuard: e.target.checked })} />
              Trainer guard
            </label>
          </>
        )}
        <button
          type="button"
          onClick={() => {
            const { fixmatchSteps, fixmatchWarmSteps, residualWhenCalibrated, ...rest } = recommended;
            if (pairwise) setPairForm({ ...pairForm, ...recommendedPairs });
            else setForm({ ...form, ...rest, steps: fixmatchSteps, warmSteps: fixmatchWarmSteps ?? 0, residualWhenCalibrated: residualWhenCalibrated ?? 0 });
          }}
          className="pb-1.5 text-xs font-medium text-indigo-600 hover:text-indigo-500"
          title={
            pairwise
              ? `${recommendedPairs.pairDesign} pairs, uniform share ${recommendedPairs.pairUniformShare}`
              : `${recommended.acquisition}${recommended.residualWhenCalibrated !== null ? ` (the residual score where calibrated within ${recommended.residualWhenCalibrated})` : ""}, ${recommended.design}, ${recommended.fixmatch ? `FixMatch ${recommended.fixmatchSteps} steps${recommended.fixmatchWarmSteps ? `, then ${recommended.fixmatchWarmSteps} warm` : ""}` : "supervised"}, ${recommended.estimator}`
          }
        >
          Recommended
        </button>
        <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">
          Run simulation
        </button>
        {error && (
          <p role="alert" className="w-full text-rose-700">
            {error}
          </p>
        )}
      </form>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,4fr)_minmax(0,8fr)]">
        <section className="rounded-xl border border-slate-200 bg-white" aria-label="Runs">
          <h2 className="px-4 pb-1 pt-3 text-sm font-semibold">Runs</h2>
          {runs.length === 0 && <p className="px-4 pb-3 text-sm text-slate-500">No simulation yet.</p>}
          <ul className="divide-y divide-slate-100 text-xs">
            {runs.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  onClick={() => setSelected(r.id)}
                  data-testid="simulation-run"
                  data-status={r.status}
                  className={`w-full px-4 py-2 text-left ${current?.id === r.id ? "bg-indigo-50/70" : "hover:bg-slate-50"}`}
                >
                  <div className="flex justify-between">
                    {r.options.mode === "pairwise" ? (
                      <span className="font-medium text-slate-800">
                        pairwise · {r.options.pairDesign} pairs{r.options.pairDesign !== "random" ? ` + ${r.options.pairUniformShare} uniform` : ""}
                      </span>
                    ) : (
                      <span className="font-medium text-slate-800">
                        {r.options.acquisition}
                        {r.options.design ? ` (${r.options.design})` : ""} · {r.options.estimator}
                        {r.options.fixmatch ? " · FixMatch" : ""}
                        {r.options.trainerGuard ? " + guard" : ""}
                      </span>
                    )}
                    <span className={r.status === "failed" ? "text-rose-700" : r.status === "done" ? "text-emerald-700" : "text-indigo-700"}>
                      {r.status === "running" && r.progress ? `${r.progress.nLabels}/${r.progress.budget} labels` : r.status}
                    </span>
                  </div>
                  <div className="text-slate-500">
                    seed {r.options.seedSize} + {r.options.batch}/round to {r.options.budget}
                    {r.options.mode === "pairwise" ? " answers" : ` · ${r.options.steps} steps`} · seed {r.options.seed}
                    {r.summary ? ` · AEC(NMI) ${formatMetric(r.summary.aec.nmi, 4)}` : ""}
                  </div>
                  {r.error && <div className="text-rose-700">{r.error}</div>}
                </button>
              </li>
            ))}
          </ul>
        </section>
        <section className="rounded-xl border border-slate-200 bg-white p-3" aria-label="Result">
          {current?.status === "done" && rounds && current.summary ? (
            <div className="space-y-3">
              <MetricTabs metric={metric} onChange={setMetric} controls="simulation-curves" />
              <div id="simulation-curves" className="h-64">
                <ConvergenceChart rounds={asChartRounds(rounds)} metric={metric} clusterings={clusterings} styles={styles} selected={null} trueMetrics={rounds[0].true} />
              </div>
              <AecTable summary={current.summary} clusterings={clusterings} styles={styles} />
            </div>
          ) : (
            <p className="p-4 text-sm text-slate-500">{current ? `The selected run is ${current.status}.` : "Run a simulation to see its curves and AEC."}</p>
          )}
        </section>
      </div>
    </div>
  );
}

function AecTable({ summary, clusterings, styles }: { summary: Summary; clusterings: string[]; styles: Record<string, SeriesStyle> }) {
  return (
    <table className="w-full text-xs tabular-nums" data-testid="aec-table">
      <thead>
        <tr className="border-b border-slate-200 text-right text-[11px] uppercase tracking-wide text-slate-500">
          <th className="py-1 text-left font-medium">AEC</th>
          {METRICS.map((m) => (
            <th key={m.key} className="font-medium">
              {m.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="text-right">
        <tr className="border-b border-slate-100 font-medium">
          <td className="py-1 text-left">mean, per round</td>
          {METRICS.map((m) => (
            <td key={m.key}>{formatMetric(summary.aec[m.key], 4)}</td>
          ))}
        </tr>
        <tr className="border-b border-slate-100">
          <td className="py-1 text-left">mean, per 1000 labels</td>
          {METRICS.map((m) => (
            <td key={m.key}>{formatMetric(summary.aecPer1000Labels[m.key], 4)}</td>
          ))}
        </tr>
        {clusterings.map((c) => (
          <tr key={c} className="border-b border-slate-100 text-slate-600">
            <td className="py-1 text-left">
              <SeriesGlyph style={styles[c]} />
              <span className="font-mono">{c}</span>
            </td>
            {METRICS.map((m) => (
              <td key={m.key}>{formatMetric(summary.aecByClustering[c]?.aec[m.key], 4)}</td>
            ))}
          </tr>
        ))}
        {summary.intervalCoverage && (
          <tr className="text-slate-600">
            <td className="py-1 text-left">interval coverage</td>
            {METRICS.map((m) => (
              <td key={m.key}>{Math.round(summary.intervalCoverage![m.key] * 100)}%</td>
            ))}
          </tr>
        )}
      </tbody>
    </table>
  );
}
