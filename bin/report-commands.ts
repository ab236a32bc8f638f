/**
 * `cereal report` and `cereal recompute`: a project's report written to a folder (the same
 * files the dashboard's export zips, lib/server/report/), and the report's tables recomputed
 * offline from its reproduce/ folder and the project's bundle, round by round with lib/cereal's
 * fit and estimate steps, then compared with the report's numbers.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import type { Design, Draw } from "@/lib/cereal/method/designs";
import { recordFromJson, type OutOfSampleJson } from "@/lib/cereal/method/out-of-sample";
import type { CerealProblem, CerealState } from "@/lib/cereal/method/problem";
import { estimateRound, fitRound, needsSurrogate, type RoundOptions } from "@/lib/cereal/method/round";
import type { SurrogateFactory } from "@/lib/cereal/method/surrogate";
import { loadBundle } from "@/lib/data/bundle";
import { METRIC_KEYS, type MetricKey } from "@/lib/metrics";
import { METRIC_NAMES } from "@/lib/metrics";
import { rankingCsv, type RankingRow } from "@/lib/report/ranking-table";
import { db } from "@/lib/server/db";
import { migrateConfiguredDatabase } from "@/lib/server/migrate";
import { projectReport, reportQuery } from "@/lib/server/report/project-report";
import { clusterwiseRoundOptions } from "@/lib/server/rounds/round-config";
import { CommandError, service } from "./project-commands";

export const REPORT_USAGE = `  cereal report PROJECT --out DIR [--metrics nmi,ari] [--clustering NAME] [--measure silhouette|davies-bouldin|calinski-harabasz] [--no-print]
  cereal recompute --report DIR --bundle DIR [--surrogate mlp|fake]   (the report's tables recomputed offline; exit 1 on a difference)`;

/** PROJECT is an id or an exact name; the report is made as the project's owner. */
export async function runReport(argv: string[], print: (line: string) => void = console.log) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: "string" }, metrics: { type: "string" }, clustering: { type: "string" }, measure: { type: "string" }, "no-print": { type: "boolean", default: false } },
  });
  if (positionals.length !== 1) throw new CommandError("report takes one project (its id or name)");
  if (!values.out) throw new CommandError("--out DIR is required");
  const parsed = reportQuery.safeParse({ metrics: values.metrics, clustering: values.clustering, measure: values.measure });
  if (!parsed.success) throw new CommandError(parsed.error.issues.map((i) => i.message).join("; "));
  await migrateConfiguredDatabase();
  const project = await db().project.findFirst({ where: { OR: [{ id: positionals[0] }, { name: positionals[0] }] }, select: { id: true, name: true } });
  if (!project) throw new CommandError(`no project with id or name ${positionals[0]}`);
  const owner = await db().projectMember.findFirst({ where: { projectId: project.id, role: "OWNER" }, include: { user: true } });
  if (!owner) throw new CommandError(`project ${project.name} has no owner`);
  const { id, email, name, role } = owner.user;
  const report = await service(() => projectReport({ id, email, name, role }, project.id, parsed.data, { print: !values["no-print"] }));
  const out = resolve(values.out);
  for (const file of report.files) {
    await mkdir(dirname(join(out, file.name)), { recursive: true });
    await writeFile(join(out, file.name), file.data);
  }
  print(`wrote the report of ${project.name} to ${out} (${report.files.length} files)`);
  for (const note of report.notes) print(`  note: ${note}`);
  return { out, files: report.files.map((f) => f.name), notes: report.notes };
}

interface ReportConfig {
  project: { mode: string };
  classes: unknown[];
  clusterings: { name: string }[];
  rounds: { index: number; status: string; nLabels: number; seed: number; config: { acquisition: string; design: string; estimator: string; fixmatch: boolean; fixmatchSteps: number; fixmatchWarmSteps?: number | null; residualWhenCalibrated?: number | null } }[];
}

export interface RecomputedEstimate {
  readonly round: number;
  readonly nLabels: number;
  readonly clustering: string;
  readonly metric: MetricKey;
  readonly value: number;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly pBest: number | null;
}

type CsvRow = Record<string, string>;
const readCsv = async (file: string) => parse(await readFile(file, "utf8"), { columns: true }) as CsvRow[];
const optionalNumber = (s: string) => (s === "" ? null : Number(s));

/** The out-of-sample record round `index` estimated with (reports made before issue #18 kept its predecessor's record after it). */
async function readRecord(reportDir: string, index: number) {
  for (const name of [`round-${index}-evidence.json`, `round-${index - 1}-record.json`]) {
    try {
      return recordFromJson(JSON.parse(await readFile(join(reportDir, "reproduce", "rounds", name), "utf8")) as OutOfSampleJson);
    } catch {
      // not in this report: try the older name
    }
  }
  return undefined;
}

/** Every finished round of the report estimated again from its labeled subset, out-of-sample records and the bundle. */
export async function recomputeEstimates(reportDir: string, bundleDir: string, createSurrogate: SurrogateFactory): Promise<RecomputedEstimate[]> {
  const config = JSON.parse(await readFile(join(reportDir, "reproduce", "config.json"), "utf8")) as ReportConfig;
  if (config.project.mode !== "clusterwise") throw new CommandError("recompute covers clusterwise projects; a pairwise round's estimates come from its pair answers (not in this report)");
  const names = config.clusterings.map((c) => c.name);
  const bundle = await loadBundle(bundleDir, { clusterings: names });
  // the round's clusterings in the project's order (by name), as the worker loaded them
  const problem: CerealProblem = {
    embeddings: { data: bundle.embeddings, n: bundle.n, d: bundle.d },
    numClasses: Math.max(2, config.classes.length),
    clusterings: names.map((name) => bundle.clusterings.find((c) => c.name === name)!),
  };
  const subset = await readCsv(join(reportDir, "reproduce", "labeled-subset.csv"));
  const out: RecomputedEstimate[] = [];
  // a warm-started round trains on from the previous round's weights: recomputed in order, each round hands them on
  let warmStart: Float32Array | undefined;
  for (const round of config.rounds.filter((r) => r.status === "done")) {
    const used = subset.filter((row) => row.used_by_round !== "" && Number(row.used_by_round) <= round.index);
    const draws: Draw[] = used.map((row) => ({
      row: Number(row.item_index),
      design: row.design as Design,
      score: optionalNumber(row.score),
      q: Number(row.q),
      order: Number(row.draw_order),
      round: Number(row.draw_round),
    }));
    const record = await readRecord(reportDir, round.index);
    const state: CerealState = {
      problem,
      labeled: { rows: Int32Array.from(used, (row) => Number(row.item_index)), labels: Int32Array.from(used, (row) => Number(row.class_index)) },
      draws,
      round: round.index,
      outOfSample: record,
      warmStart,
    };
    // what the round's fit and estimate steps read: no next batch is drawn here
    const options: RoundOptions = { ...clusterwiseRoundOptions(round.config, round.seed), batch: 0 };
    const surrogate = needsSurrogate(options) ? await createSurrogate(problem.embeddings, problem.numClasses) : null;
    try {
      const fitted = await fitRound(state, surrogate, options);
      warmStart = fitted.weights ?? undefined;
      const { estimate, intervals } = estimateRound(state, fitted, options);
      for (const name of names)
        for (const metric of METRIC_KEYS)
          out.push({
            round: round.index,
            nLabels: used.length,
            clustering: name,
            metric,
            value: estimate[name][metric],
            lo: intervals?.interval[name]?.[metric]?.[0] ?? null,
            hi: intervals?.interval[name]?.[metric]?.[1] ?? null,
            pBest: intervals?.pBest[metric]?.[name] ?? null,
          });
    } finally {
      surrogate?.dispose();
    }
  }
  return out;
}

export interface RecomputeOutcome {
  /** full-precision differences from reproduce/estimates.csv, and tables that print differently */
  readonly differences: string[];
  readonly compared: number;
  readonly tables: Record<string, string>;
}

/** Recomputes, then compares every estimate with reproduce/estimates.csv and every ranking table as it prints. */
export async function recompute(reportDir: string, bundleDir: string, createSurrogate: SurrogateFactory): Promise<RecomputeOutcome> {
  const manifest = JSON.parse(await readFile(join(reportDir, "report.json"), "utf8")) as { metrics: MetricKey[]; level: number };
  const recomputed = await recomputeEstimates(reportDir, bundleDir, createSurrogate);
  const differences: string[] = [];
  const stored = await readCsv(join(reportDir, "reproduce", "estimates.csv"));
  const key = (round: number | string, clustering: string, metric: string) => `${round}|${clustering}|${metric}`;
  const byKey = new Map(recomputed.map((e) => [key(e.round, e.clustering, e.metric), e]));
  for (const row of stored) {
    const e = byKey.get(key(row.round, row.clustering, row.metric));
    const label = `round ${row.round} ${row.clustering} ${row.metric}`;
    if (!e) differences.push(`${label}: not recomputed`);
    else if (Number(row.n_labels) !== e.nLabels) differences.push(`${label}: ${e.nLabels} labels, the report says ${row.n_labels}`);
    else
      for (const [field, mine] of [["estimate", e.value], ["lo", e.lo], ["hi", e.hi], ["p_best", e.pBest]] as const) {
        const theirs = optionalNumber(row[field]);
        if (theirs !== mine) differences.push(`${label} ${field}: recomputed ${mine}, the report says ${theirs}`);
      }
  }
  const latest = Math.max(...recomputed.map((e) => e.round));
  const tables: Record<string, string> = {};
  for (const metric of manifest.metrics) {
    const file = join(reportDir, "tables", `ranking-${metric}.csv`);
    // the label-free column is not an estimate: it is taken from the report as it is
    const labelFree = new Map((await readCsv(file)).map((row) => [row.clustering, optionalNumber(row.label_free)]));
    const rows: RankingRow[] = recomputed
      .filter((e) => e.round === latest && e.metric === metric)
      .map((e) => ({ clustering: e.clustering, estimate: e.value, lo: e.lo, hi: e.hi, pBest: e.pBest, labels: e.nLabels, labelFree: labelFree.get(e.clustering) ?? null }));
    tables[metric] = rankingCsv({ metric: METRIC_NAMES[metric], labelFreeName: "", level: manifest.level, rows });
    if (tables[metric] !== (await readFile(file, "utf8"))) differences.push(`tables/ranking-${metric}.csv prints differently when recomputed`);
  }
  return { differences, compared: stored.length, tables };
}

export async function runRecompute(argv: string[], surrogateFactory: (name: "mlp" | "fake") => Promise<SurrogateFactory>, print: (line: string) => void = console.log) {
  const { values } = parseArgs({ args: argv, options: { report: { type: "string" }, bundle: { type: "string" }, surrogate: { type: "string", default: "mlp" } } });
  if (!values.report || !values.bundle) throw new CommandError("recompute needs --report DIR and --bundle DIR");
  if (values.surrogate !== "mlp" && values.surrogate !== "fake") throw new CommandError(`--surrogate must be mlp or fake, got '${values.surrogate}'`);
  const outcome = await recompute(resolve(values.report), resolve(values.bundle), await surrogateFactory(values.surrogate));
  for (const [metric, csv] of Object.entries(outcome.tables)) print(`${METRIC_NAMES[metric as MetricKey]} (recomputed):\n${csv}`);
  if (outcome.differences.length) {
    for (const d of outcome.differences) print(`differs: ${d}`);
    process.exitCode = 1;
  } else print(`all ${outcome.compared} estimates and every ranking table match the report`);
  return outcome;
}
