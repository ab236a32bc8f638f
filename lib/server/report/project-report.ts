import { zipSync } from "fflate";
import { z } from "zod";
import { recordToJson } from "@/lib/cereal/method/out-of-sample";
import { METRIC_KEYS, type MetricKey } from "@/lib/metrics";
import { convergenceSvg, type ConvergencePanel } from "@/lib/report/convergence-svg";
import { heatmapSvg } from "@/lib/report/heatmap-svg";
import { methodsParagraph, methodsReferences, type MethodsConfig } from "@/lib/report/methods";
import { METRIC_NAMES } from "@/lib/metrics";
import { rankingCsv, rankingLatex, rankingMarkdown, rankRows, type RankingTable } from "@/lib/report/ranking-table";
import { bibtex } from "@/lib/report/references";
import { reportHtml } from "@/lib/report/report-html";
import { codeVersion } from "../code-version";
import { contingencyView } from "../evaluation/contingency-view";
import { db } from "../db";
import { conflict } from "../errors";
import { exportConfig, exportEstimates, exportLabels, fileStem } from "../exports/exports";
import { labelFreeEvaluation, labelFreeQuery } from "../evaluation/label-free";
import { labelOverview } from "../labeling/label-overview";
import { requireProjectRole } from "../auth/project-access";
import { estimateHistory, type RoundEstimates } from "../project-data/estimate-history";
import { readEvidenceRecord } from "../project-data/round-files";
import type { SessionUser } from "../auth/session";
import { projectTrueMetrics } from "../evaluation/true-metrics";
import { chromiumPath, htmlToPdf, svgToPng } from "./chromium-print";
import { labeledSubsetCsv } from "./labeled-subset";

/**
 * A project's report (owner): the convergence figure, the ranking tables, the contingency
 * heatmap, the methods paragraph with BibTeX, and everything `cereal recompute` needs to
 * recompute the tables offline, as files (the CLI writes them to a folder) or one .zip (the
 * dashboard's export menu). Every number comes from the services the dashboard reads.
 */
export const reportQuery = z.object({
  metrics: z
    .string()
    .default("nmi,ari")
    .transform((s) => s.split(",").map((m) => m.trim()).filter(Boolean))
    .pipe(z.array(z.enum(METRIC_KEYS, { message: `metrics are a comma-separated list of ${METRIC_KEYS.join(", ")}` })).min(1, "Name at least one metric.")),
  clustering: z.string().min(1).optional(),
  measure: labelFreeQuery.shape.measure,
});
export type ReportQuery = z.infer<typeof reportQuery>;

export interface ReportFile {
  readonly name: string;
  readonly data: string | Uint8Array;
}

export interface ProjectReport {
  readonly files: ReportFile[];
  readonly notes: string[];
}

/** the rounds' intervals are bootstrapIntervals' default level (lib/cereal/method/intervals.ts) */
const LEVEL = 0.9;

const MEASURE_NAMES: Record<string, string> = { silhouette: "Silhouette", "davies-bouldin": "Davies-Bouldin", "calinski-harabasz": "Calinski-Harabasz" };

const safeName = (name: string) => name.replace(/[^\w.-]+/g, "-") || "clustering";

function convergencePanels(history: RoundEstimates[], metrics: readonly MetricKey[], truth: Record<string, Partial<Record<string, number>>> | null): ConvergencePanel[] {
  return metrics.map((metric) => {
    const byClustering = new Map<string, ConvergencePanel["series"][number]["points"][number][]>();
    for (const round of history) {
      for (const e of round.estimates) {
        if (e.metric !== metric) continue;
        const points = byClustering.get(e.clustering) ?? [];
        points.push({ x: round.nLabels, y: e.value, lo: e.lo, hi: e.hi });
        byClustering.set(e.clustering, points);
      }
    }
    return {
      metric: METRIC_NAMES[metric],
      series: [...byClustering].map(([name, points]) => ({ name, points, truth: truth?.[name]?.[metric] ?? null })),
    };
  });
}

function rankingTable(latest: RoundEstimates, metric: MetricKey, labelFree: ReadonlyMap<string, number | null>, labelFreeName: string): RankingTable {
  const rows = latest.estimates
    .filter((e) => e.metric === metric)
    .map((e) => ({ clustering: e.clustering, estimate: e.value, lo: e.lo, hi: e.hi, pBest: e.pBest, labels: latest.nLabels, labelFree: labelFree.get(e.clustering) ?? null }));
  return { metric: METRIC_NAMES[metric], labelFreeName, level: LEVEL, rows };
}

export async function projectReport(user: SessionUser, projectId: string, query: ReportQuery, options: { print?: boolean } = {}): Promise<ProjectReport> {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { id: true, name: true, dataPath: true, mode: true, n: true, seed: true, overlap: true, acquisition: true, design: true, estimator: true, fixmatch: true, fixmatchSteps: true, fixmatchWarmSteps: true, residualWhenCalibrated: true, seedSize: true, batchSize: true, budget: true, _count: { select: { classes: true, clusterings: true } } },
  });
  const history = await estimateHistory(projectId);
  const latest = history.at(-1);
  if (!latest) throw conflict("No round has finished yet: a report needs estimates. Label the seed batch and wait for round 0.");
  const notes: string[] = [];

  const truth = await projectTrueMetrics(user, projectId);
  const labelFree = await labelFreeEvaluation(user, projectId, { measure: query.measure });
  const labelFreeName = `${MEASURE_NAMES[query.measure] ?? query.measure} (ACE)`;
  const aceScores = new Map(labelFree.state === "ready" ? labelFree.clusterings.map((c) => [c.name, c.ace]) : []);
  if (labelFree.state === "computing") notes.push(`The label-free ${query.measure} scores were still being computed; download the report again in a minute for that column.`);
  if (labelFree.state === "unavailable") notes.push(`No label-free column: ${labelFree.reason}`);

  const tables = query.metrics.map((metric) => ({ metric, table: rankingTable(latest, metric, aceScores, labelFreeName) }));
  const caption = (metric: MetricKey) =>
    `${METRIC_NAMES[metric]} of each clustering estimated by Cereal from ${latest.nLabels} labels (round ${latest.index}), with ${Math.round(LEVEL * 100)}% intervals and the probability of being the best; best first.`;
  const figure = convergenceSvg({
    title: `${project.name}: estimates against labels (${Math.round(LEVEL * 100)}% intervals)`,
    level: LEVEL,
    panels: convergencePanels(history, query.metrics, truth.available ? truth.metrics : null),
  });

  let heatmap: { clustering: string; svg: string } | null = null;
  if (project.mode === "pairwise") notes.push("A pairwise project has no class labels to cross with clusters: no contingency heatmap.");
  else {
    const chosen = query.clustering ?? rankRows(tables[0].table.rows)[0]?.clustering;
    if (chosen) {
      const view = await contingencyView(user, projectId, chosen);
      heatmap = { clustering: view.clustering, svg: heatmapSvg(view) };
    }
  }

  const overview = await labelOverview(user, projectId, { page: 0, pageSize: 1 });
  const configText = await (await exportConfig(user, projectId)).text();
  const config = JSON.parse(configText) as { rounds: { index: number; status: string; codeVersion: string | null; config: { fits?: number } | null }[] };
  const latestRound = config.rounds.find((r) => r.index === latest.index);
  const methodsConfig: MethodsConfig = {
    mode: project.mode as MethodsConfig["mode"],
    n: project.n,
    classes: project._count.classes,
    clusterings: project._count.clusterings,
    metrics: query.metrics.map((m) => METRIC_NAMES[m]),
    acquisition: project.acquisition,
    design: project.design,
    estimator: project.estimator,
    fixmatch: project.fixmatch,
    fixmatchSteps: project.fixmatchSteps,
    fixmatchWarmSteps: project.fixmatchWarmSteps,
    residualWhenCalibrated: project.residualWhenCalibrated,
    seedSize: project.seedSize,
    batchSize: project.batchSize,
    budget: project.budget,
    overlap: project.overlap,
    rounds: history.length,
    labels: latest.nLabels,
    annotators: overview.annotators.length,
    agreement: overview.agreement,
    level: LEVEL,
    seed: project.seed,
    codeVersion: latestRound?.codeVersion ?? null,
    // pairwise rounds recorded before fits were averaged fitted once
    pairwiseFits: latestRound?.config?.fits ?? 1,
    labelFree: aceScores.size ? (MEASURE_NAMES[query.measure] ?? query.measure).toLowerCase() : null,
  };
  const methodsText = methodsParagraph(methodsConfig, "text");
  const references = bibtex(methodsReferences(methodsConfig));
  const subset = await labeledSubsetCsv(projectId);
  if (subset.corrected) notes.push(`${subset.corrected} label${subset.corrected === 1 ? " was" : "s were"} corrected by the owner: a round that ran before a correction saw the old value, so recomputing it from this subset differs.`);

  const heatmapName = heatmap ? `figures/contingency-${safeName(heatmap.clustering)}` : null;
  const reproduce = [
    "reproduce/config.json: the project's settings and every round's configuration, seed and code version.",
    "reproduce/labeled-subset.csv: each settled label with its draw record and the first round that used it; reproduce/labels.csv: every answer.",
    "reproduce/rounds/round-R-evidence.json: the out-of-sample record round R estimated with (its settled stages' evidence); reproduce/estimates.csv: every round's estimates at full precision.",
    "Recompute the tables offline: npm run cereal -- recompute --report THIS_FOLDER --bundle BUNDLE (the project's bundle: Export, or GET /api/projects/ID/exports/bundle).",
  ];
  const files: ReportFile[] = [
    { name: "figures/convergence.svg", data: figure },
    ...(heatmap && heatmapName ? [{ name: `${heatmapName}.svg`, data: heatmap.svg }] : []),
    ...tables.flatMap(({ metric, table }) => [
      { name: `tables/ranking-${metric}.tex`, data: rankingLatex(table, caption(metric), `cereal-ranking-${metric}`) },
      { name: `tables/ranking-${metric}.md`, data: rankingMarkdown(table) },
      { name: `tables/ranking-${metric}.csv`, data: rankingCsv(table) },
    ]),
    { name: "methods.md", data: methodsText + "\n" },
    { name: "methods.tex", data: methodsParagraph(methodsConfig, "latex") + "\n" },
    { name: "references.bib", data: references },
    { name: "reproduce/config.json", data: configText },
    { name: "reproduce/labeled-subset.csv", data: subset.csv },
    { name: "reproduce/labels.csv", data: await (await exportLabels(user, projectId, "csv")).text() },
    { name: "reproduce/estimates.csv", data: await (await exportEstimates(user, projectId)).text() },
  ];
  for (const round of history) {
    const record = await readEvidenceRecord(project, round.index);
    if (record) files.push({ name: `reproduce/rounds/round-${round.index}-evidence.json`, data: JSON.stringify(recordToJson(record)) });
  }

  const print = options.print !== false && chromiumPath() !== null;
  if (options.print !== false && !print) notes.push("Chromium is not installed here (set CHROMIUM_PATH): no PNG figures or PDF; the SVG figures and report.html are complete.");
  const html = reportHtml({
    title: `${project.name}: clustering evaluation`,
    subtitle: `${history.length} round${history.length === 1 ? "" : "s"}, ${latest.nLabels} labels (round ${latest.index}); generated ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by Cereal Studio ${codeVersion()}.`,
    convergenceSvg: figure,
    tables: tables.map(({ metric, table }) => ({ metric: METRIC_NAMES[metric], table, caption: caption(metric) })),
    heatmap,
    methods: methodsText,
    bibtex: references,
    reproduce,
    notes,
  });
  files.push({ name: "report.html", data: html });

  if (print) {
    files.push({ name: "figures/convergence.png", data: await svgToPng(figure) });
    if (heatmap && heatmapName) files.push({ name: `${heatmapName}.png`, data: await svgToPng(heatmap.svg) });
    files.push({ name: "report.pdf", data: await htmlToPdf(html) });
  }
  files.push({
    name: "report.json",
    data: JSON.stringify({ project: project.name, projectId, generatedAt: new Date().toISOString(), codeVersion: codeVersion(), metrics: query.metrics, clustering: heatmap?.clustering ?? null, measure: query.measure, level: LEVEL, round: latest.index, notes, files: files.map((f) => f.name) }, null, 2),
  });
  return { files, notes };
}

/** GET /api/projects/:id/exports/report: the report as one .zip. */
export async function exportReport(user: SessionUser, projectId: string, query: ReportQuery): Promise<Response> {
  const report = await projectReport(user, projectId, query);
  const encoder = new TextEncoder();
  const zip = zipSync(Object.fromEntries(report.files.map((f) => [f.name, typeof f.data === "string" ? encoder.encode(f.data) : f.data])));
  return new Response(zip, {
    headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${await fileStem(projectId)}-report.zip"`, "cache-control": "no-store" },
  });
}
