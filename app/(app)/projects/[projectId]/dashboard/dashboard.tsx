"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { apiJson } from "@/app/components/api";
import { CandidateClusteringForm } from "./candidate-clustering-form";
import { ClusteringRanking } from "./clustering-ranking";
import { ContingencyHeatmap } from "./contingency-heatmap";
import { ConvergenceChart } from "../../../../components/convergence-chart";
import { METRICS, type MetricKey } from "@/app/components/metrics";
import type { DashboardProject, TrueMetrics } from "./dashboard-types";
import { ExportMenu } from "./export-menu";
import { LabelsPanel } from "./labels-panel";
import { RoundsPanel } from "./rounds-panel";
import { LABEL_FREE_MEASURES, useLabelFree, type LabelFreeMeasure } from "./use-label-free";
import { seriesStyles } from "../../../../components/series-style";
import { useLiveProject } from "./use-live-project";
import { useRanking } from "./use-ranking";
import { MetricTabs } from "../../../../components/metric-tabs";

export function Dashboard({ project }: { project: DashboardProject }) {
  const { snapshot, rounds, stopRule, connected, stepsPerSecond, refreshRounds } = useLiveProject(project.id);
  const [metric, setMetric] = useState<MetricKey>("nmi");
  const [selected, setSelected] = useState<string | null>(null);
  const [trueMetrics, setTrueMetrics] = useState<TrueMetrics | null>(null);
  const [pauseError, setPauseError] = useState<string | null>(null);
  const [measure, setMeasure] = useState<LabelFreeMeasure>("silhouette");
  const router = useRouter();
  // a candidate clustering made in the app is a new row of the ranking: reload the page's project
  const reloadClusterings = useCallback(() => router.refresh(), [router]);

  useEffect(() => {
    if (!project.hasReferenceLabels) return;
    apiJson<{ available: boolean; metrics: TrueMetrics }>(`/api/projects/${project.id}/true-metrics`).then(
      (r) => setTrueMetrics(r.available ? r.metrics : null),
      () => setTrueMetrics(null),
    );
  }, [project.id, project.hasReferenceLabels]);

  const names = project.clusterings.map((c) => c.name);
  const styles = useMemo(() => seriesStyles(project.clusterings.map((c) => c.name)), [project.clusterings]);
  const labelFree = useLabelFree(project.id, measure, names.join(","));
  // refetched when the round history (a round finished), the metric, the measure or the label-free state changes
  const ranking = useRanking(project.id, metric, measure, rounds, `${labelFree.state}|${names.join(",")}`);
  const best = ranking?.round ? ranking.rows[0]?.name : undefined;
  const agreement = ranking?.agreement ?? null;
  const measureInfo = LABEL_FREE_MEASURES.find((m) => m.key === measure)!;
  const metricLabel = METRICS.find((m) => m.key === metric)!.label;
  const focus = selected ?? best ?? names[0] ?? null;
  const paused = snapshot?.paused ?? project.paused;
  const labels = snapshot?.labels ?? 0;
  const budget = snapshot?.budget ?? project.budget;
  const heatmapVersion = `${snapshot?.lastRound?.index ?? "none"}:${snapshot?.lastRound ? "" : labels}`;

  const togglePause = async () => {
    setPauseError(null);
    try {
      await apiJson(`/api/projects/${project.id}/settings`, { method: "PATCH", body: { paused: !paused } });
    } catch (e) {
      setPauseError((e as Error).message);
    }
  };

  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <div className="min-w-0">
          <Link href={`/projects/${project.id}`} className="text-xs text-slate-500 hover:text-slate-700">
            ← Project
          </Link>
          <h1 className="text-xl font-semibold tracking-tight">{project.name}</h1>
        </div>
        <div className="flex items-center gap-4 text-xs text-slate-600">
          {/* a word beside the dot: its colour alone would not tell everyone */}
          <span className="flex items-center gap-1.5" title={connected ? "Live: updates arrive as they happen" : "Reconnecting…"} data-testid="live-indicator" data-live={connected}>
            <span aria-hidden className={`inline-block h-2 w-2 rounded-full ${connected ? "bg-emerald-500" : "bg-slate-300"}`} />
            {connected ? "live" : "reconnecting…"}
          </span>
          <div className="w-44">
            <div className="flex justify-between">
              <span>Labels</span>
              <span className="tabular-nums" data-testid="label-count">
                {labels} / {budget}
              </span>
            </div>
            <div className="mt-1 h-1.5 rounded-full bg-slate-200">
              <div className="h-full rounded-full bg-indigo-500" style={{ width: `${Math.min(100, (labels / Math.max(1, budget)) * 100)}%` }} />
            </div>
          </div>
          {snapshot?.stages && (
            <span className="tabular-nums" title="labels of settled stages toward the next round">
              Stage {snapshot.stages.latest} · next round {snapshot.stages.fresh}/{snapshot.stages.batchSize}
            </span>
          )}
          {paused && <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-800">paused</span>}
        </div>
        <nav className="ml-auto flex items-center gap-2 text-sm">
          <button type="button" onClick={togglePause} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
            {paused ? "Resume" : "Pause"}
          </button>
          <ExportMenu projectId={project.id} />
          {project.hasReferenceLabels && (
            <Link href={`/projects/${project.id}/simulation`} className="rounded-md px-2 py-1.5 text-slate-600 hover:bg-slate-100">
              Simulation
            </Link>
          )}
          <Link href={`/projects/${project.id}/members`} className="rounded-md px-2 py-1.5 text-slate-600 hover:bg-slate-100">
            Members
          </Link>
          <Link href={`/projects/${project.id}/settings`} className="rounded-md px-2 py-1.5 text-slate-600 hover:bg-slate-100">
            Settings
          </Link>
        </nav>
        {pauseError && (
          <p className="w-full text-xs text-rose-700" role="alert">
            {pauseError}
          </p>
        )}
      </header>

      {project.mode === "pairwise" && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
          Pairwise project: estimates come from a surrogate trained on same/different answers (pseudo-labels are its cluster ids); labels, rounds and exports work as usual.
        </p>
      )}

      <div className="flex items-center gap-1">
        <MetricTabs metric={metric} onChange={setMetric} controls="convergence ranking" />
        <span className="ml-3 text-xs text-slate-500">
          {trueMetrics ? "Dashed: true value from the reference labels. " : ""}Bands: 90% intervals.
        </span>
      </div>

      {/* the ranking's ten columns (estimates and label-free scores) need most of the row; the rounds table below needs a third */}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,5fr)]">
        <section id="convergence" className="h-80 rounded-xl border border-slate-200 bg-white p-2" aria-label="Convergence" data-testid="convergence">
          {rounds && <ConvergenceChart rounds={rounds} metric={metric} clusterings={names} styles={styles} selected={focus} trueMetrics={trueMetrics} />}
        </section>
        <section id="ranking" className="rounded-xl border border-slate-200 bg-white" aria-label="Ranking">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 pb-1 pt-3">
            <h2 className="text-sm font-semibold">
              Ranking by {ranking?.round ? metricLabel : "ACE"}
              {/* the round whose estimates the table shows, so the line and the numbers never disagree while the history refetches */}
              {ranking?.round && (
                <span className="ml-2 text-xs font-normal text-slate-500">
                  round {ranking.round.index}, {ranking.round.nLabels} labels
                </span>
              )}
            </h2>
            <div className="ml-auto flex items-center gap-2 text-xs text-slate-600">
              <label className="flex items-center gap-1">
                Label-free
                <select aria-label="Internal measure" value={measure} onChange={(e) => setMeasure(e.target.value as LabelFreeMeasure)} className="rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs">
                  {LABEL_FREE_MEASURES.map((m) => (
                    <option key={m.key} value={m.key}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </label>
              <span className="text-slate-500" data-testid="measure-direction">
                {measureInfo.lowerIsBetter ? "↓ lower is better" : "↑ higher is better"}
              </span>
              {labelFree.state === "computing" && (
                <span className="text-indigo-700" data-testid="label-free-status">
                  computing…
                </span>
              )}
              {(labelFree.state === "unavailable" || labelFree.state === "error") && (
                <span className="text-amber-700" data-testid="label-free-status" title={labelFree.state === "unavailable" ? labelFree.reason : labelFree.message}>
                  {labelFree.state === "unavailable" ? "needs 3 clusterings" : "failed"}
                </span>
              )}
              {agreement && (
                <span
                  className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700 tabular-nums"
                  data-testid="rank-agreement"
                  title={`Spearman's rho between the ACE ranking and the ${metricLabel} estimates' ranking over ${agreement.n} clusterings: 1 = same order, 0 = unrelated, −1 = reversed`}
                >
                  ρ(ACE, {metricLabel}) = {agreement.rho.toFixed(2)}
                </span>
              )}
            </div>
          </div>
          {ranking && (
            <ClusteringRanking
              ranking={ranking}
              stopRule={stopRule}
              trueMetrics={trueMetrics}
              styles={styles}
              selected={focus}
              onSelect={setSelected}
              labelFree={labelFree}
              measure={measure}
            />
          )}
          <CandidateClusteringForm projectId={project.id} defaultK={Math.max(2, project.classes.length || 10)} onAdded={reloadClusterings} />
        </section>
      </div>

      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <section className="rounded-xl border border-slate-200 bg-white pb-2" aria-label="Rounds">
          <h2 className="px-4 pb-2 pt-3 text-sm font-semibold">Rounds</h2>
          <RoundsPanel projectId={project.id} snapshot={snapshot} rounds={rounds ?? []} stepsPerSecond={stepsPerSecond} metric={metric} pairwise={project.mode === "pairwise"} onChanged={refreshRounds} />
        </section>
        <section className="rounded-xl border border-slate-200 bg-white" aria-label="Contingency">
          <div className="flex items-center gap-2 px-4 pb-2 pt-3">
            <h2 className="text-sm font-semibold">Contingency</h2>
            {focus && project.mode !== "pairwise" && (
              <select aria-label="Clustering" value={focus} onChange={(e) => setSelected(e.target.value)} className="rounded border border-slate-300 bg-white px-1.5 py-0.5 font-mono text-xs">
                {names.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            )}
          </div>
          {focus && project.mode !== "pairwise" ? (
            <ContingencyHeatmap projectId={project.id} clustering={focus} version={heatmapVersion} />
          ) : (
            <p className="px-4 pb-3 text-sm text-slate-500">Pairwise labels have no classes to cross with clusters.</p>
          )}
        </section>
      </div>

      <section className="rounded-xl border border-slate-200 bg-white" aria-label="Labels">
        <h2 className="px-4 pt-3 text-sm font-semibold">Labels</h2>
        <LabelsPanel projectId={project.id} version={String(labels)} />
      </section>
    </div>
  );
}
