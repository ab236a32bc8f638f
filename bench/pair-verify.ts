/**
 * Class labels through pair answers against random pairs (issue #25): what the clusterwise method costs when every label
 * is recovered by "same class as this anchor?" answers (lib/cereal/pairwise/class-verification.ts), per answer, paired by
 * seed with the random-pairs estimate of bench/pair-ppi.ts's cache (the issue's base: `--surrogate mcl-paper`).
 *
 *   node --import tsx bench/pair-verify.ts --bundle data/digits [--clustering kmeans_k10] [--base CACHE_DIR] [--stages 200,400,600,800,1000]
 *        [--order model|top|cluster] RUN.json...
 *
 * RUN.json: `cereal simulate --recommended --record-predictions [--no-intervals] --out RUN.json` (any budget that reaches the
 * last stage's answers): its draws in order, each drawn row's drawing model, its rounds' estimates. CACHE_DIR: the folder
 * bench/pair-ppi.ts fills for the same bundle, clustering and seeds (e.g. /tmp/pair-ppi/digits-kmeans_k10-200-1000-mcl-paper);
 * without it, the labels' figures alone. Runs with intervals add the coverage of the 90% NMI interval shown at each stage,
 * runs as the unit, with Wilson's 95% bounds (issue #25's coverage table).
 *
 * --order: how the drawing model orders the anchors asked (class-verification.ts, VerificationOrder; default model).
 *
 * A round's estimate counts from the stage whose answers cover every label the round read: at a stage of A answers the
 * estimate shown is the last round's whose labels took at most A answers (a step, never ahead of the answers). AEC per
 * 1,000 answers by the trapezoid over the stages, as the pairwise runs' (x from the first stage); where the first round's
 * labels took more answers than the first stage (many classes, a weak model), both AECs of that seed are over the stages
 * from the labels' first estimate, and the output says so. Prints per metric the mean AEC +- standard error, the paired
 * ratio to the base and the seeds better; the NMI error at the last stage; then what a label cost in answers.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { aec } from "@/lib/cereal/harness/aec";
import { probaFromBytes } from "@/lib/cereal/harness/estimator-inputs";
import { argmaxEstimator, estimateMetrics } from "@/lib/cereal/method/estimators";
import { VERIFICATION_ORDERS, verificationSteps, type VerificationOrder } from "@/lib/cereal/pairwise/class-verification";
import { pairwiseEstimatorInput } from "@/lib/cereal/pairwise/pairwise-estimate";
import { loadBundle } from "@/lib/data/bundle";
import { contingency, metricsFromTable, type MetricKey, type MetricValues } from "@/lib/metrics";
import { metricMap, type SimulationResult } from "@/lib/cereal/harness/simulate";
import { mean, se } from "./sample-stats";
import { wilsonInterval } from "@/lib/cereal/harness/estimator-grid";

const { values, positionals: runFiles } = parseArgs({
  options: {
    bundle: { type: "string" },
    clustering: { type: "string", default: "kmeans_k10" },
    base: { type: "string" },
    stages: { type: "string", default: "200,400,600,800,1000" },
    order: { type: "string", default: "model" },
  },
  allowPositionals: true,
});
if (runFiles.length === 0 || !values.bundle) {
  process.stderr.write("usage: node --import tsx bench/pair-verify.ts --bundle DIR [--clustering NAME] [--base CACHE_DIR] [--stages A,A] [--order model|top|cluster] RUN.json [RUN.json ...] (runs of cereal simulate --record-predictions)\n");
  process.exit(2);
}
const bundleDir = values.bundle;
const clustering = values.clustering;
const baseDir = values.base;
const stages = values.stages.split(",").map(Number);
const order = values.order as VerificationOrder;
if (!VERIFICATION_ORDERS.includes(order)) throw new Error(`--order: one of ${VERIFICATION_ORDERS.join(", ")}`);
const METRICS: MetricKey[] = ["nmi", "ami", "ari", "fmi"];

const bundle = await loadBundle(bundleDir, { clusterings: [clustering] });
if (!bundle.labels) throw new Error(`${bundleDir} has no labels.npy`);
const labels = bundle.labels;
const assignments = bundle.clusterings[0].assignments;
const truth = metricsFromTable(contingency(labels, assignments));

/** the base's absolute errors at each stage: random pairs, the argmax estimate of the cached fit of every round (bench/pair-ppi.ts) */
function baseErrors(baseDir: string, seed: number): MetricValues[] | null {
  const json = join(baseDir, `${seed}.json`);
  if (!existsSync(json)) return null;
  const c = JSON.parse(readFileSync(json, "utf8")) as { n: number; k: number; rounds: number; round: number[] };
  const all = probaFromBytes(readFileSync(join(baseDir, `${seed}.bin`)));
  const byRound = Array.from({ length: c.rounds }, (_, r) => {
    const proba = all.subarray(r * c.n * c.k, (r + 1) * c.n * c.k);
    const estimate = estimateMetrics(pairwiseEstimatorInput(proba, c.k, c.n, "all", new Int32Array(0)), bundle.clusterings, argmaxEstimator)[clustering];
    return { answers: c.round.filter((x) => x <= r).length, absErr: metricMap((m) => Math.abs(estimate[m] - truth[m])) };
  });
  return stages.map((a) => {
    const round = byRound.find((r) => r.answers === a);
    if (!round) throw new Error(`${baseDir}/${seed}.json: no round at ${a} answers (its rounds end at ${byRound.map((r) => r.answers).join(", ")}); give --stages of its stage sizes`);
    return round.absErr;
  });
}

/** AEC per 1,000 answers of each metric over the stages given */
const stageAec = (at: readonly number[], errors: readonly MetricValues[]) =>
  Object.fromEntries(METRICS.map((m) => [m, aec(at.map((a, i) => ({ nLabels: a, absErr: errors[i][m] })), 1000)])) as Record<MetricKey, number>;

interface Row {
  readonly seed: number;
  /** the stages at which the labels' estimate exists (the first round's labels took at most that many answers): both AECs are over them */
  readonly compared: number[];
  readonly verify: Record<MetricKey, number>;
  /** null without --base */
  readonly base: Record<MetricKey, number> | null;
  readonly answersPerLabel: number;
  readonly seedBatchPerLabel: number;
  readonly laterPerLabel: number;
  readonly oneAnswerShare: number;
  readonly labelsAtLastStage: number;
  readonly nmiErrorAtLast: { readonly verify: number; readonly base: number | null };
  /** the labels' NMI error at each stage, null before their first estimate */
  readonly nmiErrorByStage: (number | null)[];
  /** whether the 90% NMI interval shown at each stage holds the truth; null before the first estimate or in a run without intervals */
  readonly coveredByStage: (boolean | null)[];
}
const rows: Row[] = [];
for (const file of runFiles) {
  const run = JSON.parse(readFileSync(file, "utf8")) as SimulationResult;
  const seed = Number(run.config.seed);
  if (!run.predictions) throw new Error(`${file}: no predictions; run cereal simulate with --record-predictions`);
  const predictions = run.predictions;
  const draws = [...run.draws].sort((a, b) => a.order - b.order);
  const steps = verificationSteps({ rows: draws.map((d) => d.row), labels, clusterOf: assignments, proba: (row) => predictions[row] ?? null, order });
  /** answers spent on the labels of rounds 0..r */
  const answersUpTo = (r: number) => steps.reduce((sum, s, i) => sum + (draws[i].round <= r ? s.answers : 0), 0);
  const byRound = run.rounds.map((record) => {
    const nmiInterval = record.interval?.[clustering]?.nmi ?? null;
    const covered = nmiInterval ? record.true[clustering].nmi >= nmiInterval[0] && record.true[clustering].nmi <= nmiInterval[1] : null;
    return { answers: answersUpTo(record.round), nLabels: record.nLabels, absErr: record.absErr[clustering], covered };
  });
  const last = stages[stages.length - 1];
  if (answersUpTo(Infinity) < last) throw new Error(`${file}: its ${draws.length} labels took ${answersUpTo(Infinity)} answers, fewer than the last stage's ${last}; simulate a larger budget`);
  // the estimate shown at a stage: the last round's whose labels took at most that many answers
  const shown = stages.map((a) => byRound.filter((r) => r.answers <= a).pop() ?? null);
  const base = baseDir ? baseErrors(baseDir, seed) : null;
  if (baseDir && !base) {
    console.error(`seed ${seed}: no base run in ${baseDir}; skipped`);
    continue;
  }
  const ready = stages.flatMap((a, i) => (shown[i] ? [i] : []));
  const compared = ready.map((i) => stages[i]);
  const seedBatch = steps.filter((_, i) => draws[i].round === 0);
  const later = steps.filter((_, i) => draws[i].round > 0);
  rows.push({
    seed,
    compared,
    verify: stageAec(compared, ready.map((i) => shown[i]!.absErr)),
    base: base && stageAec(compared, ready.map((i) => base[i])),
    answersPerLabel: mean(steps.map((s) => s.answers)),
    seedBatchPerLabel: mean(seedBatch.map((s) => s.answers)),
    laterPerLabel: mean(later.map((s) => s.answers)),
    oneAnswerShare: mean(later.map((s) => (s.answers === 1 ? 1 : 0))),
    labelsAtLastStage: shown[stages.length - 1]?.nLabels ?? 0,
    nmiErrorAtLast: { verify: shown[stages.length - 1]?.absErr.nmi ?? Number.NaN, base: base ? base[stages.length - 1].nmi : null },
    nmiErrorByStage: shown.map((r) => r?.absErr.nmi ?? null),
    coveredByStage: shown.map((r) => r?.covered ?? null),
  });
}

rows.sort((a, b) => a.seed - b.seed);
const cell = (xs: number[], digits = 4) => `${mean(xs).toFixed(digits)} ± ${se(xs).toFixed(digits)}`;
console.log(`${bundleDir}, ${clustering}, anchors asked in ${order} order: ${rows.length} seeds (${rows.map((r) => r.seed).join(", ")}), stages ${stages.join(", ")} answers`);
const partial = rows.filter((r) => r.compared.length < stages.length);
if (partial.length > 0)
  console.log(`the first round's labels took more than ${stages[0]} answers on ${partial.length} seeds: there both AECs are over the stages from the labels' first estimate (${partial.map((r) => `seed ${r.seed}: from ${r.compared[0] ?? "none"}`).join("; ")})`);
if (baseDir) {
  console.log("\n| metric | labels through pairs: AEC per 1,000 answers | random pairs (base) | ratio | seeds better |");
  console.log("|---|---|---|---|---|");
  for (const m of METRICS) {
    const v = rows.map((r) => r.verify[m]);
    const b = rows.map((r) => r.base![m]);
    console.log(`| ${m} | ${cell(v)} | ${cell(b)} | ${(mean(v) / mean(b)).toFixed(2)}x | ${rows.filter((r) => r.verify[m] < r.base![m]).length}/${rows.length} |`);
  }
} else {
  console.log(`\nlabels through pairs, AEC per 1,000 answers: ${METRICS.map((m) => `${m} ${cell(rows.map((r) => r.verify[m]))}`).join(", ")} (no --base: no comparison)`);
}
const atLast = rows.filter((r) => r.compared.length > 0);
const baseAtLast = baseDir
  ? `, random pairs ${cell(atLast.map((r) => r.nmiErrorAtLast.base!))} (${atLast.filter((r) => r.nmiErrorAtLast.verify < r.nmiErrorAtLast.base!).length}/${atLast.length} seeds lower)`
  : "";
console.log(`\nNMI absolute error at ${stages[stages.length - 1]} answers: labels through pairs ${cell(atLast.map((r) => r.nmiErrorAtLast.verify))}${baseAtLast}`);
console.log(
  `answers per label: ${cell(rows.map((r) => r.answersPerLabel), 2)} (the seed batch ${cell(rows.map((r) => r.seedBatchPerLabel), 2)}, later ${cell(rows.map((r) => r.laterPerLabel), 2)});` +
    ` later labels found by the first answer: ${cell(rows.map((r) => r.oneAnswerShare), 3)}; labels read at ${stages[stages.length - 1]} answers: ${cell(rows.map((r) => r.labelsAtLastStage), 0)}`,
);
const byStage = stages.map((a, i) => {
  const errors = rows.flatMap((r) => (r.nmiErrorByStage[i] === null ? [] : [r.nmiErrorByStage[i]!]));
  return `${a}: ${errors.length === rows.length ? mean(errors).toFixed(4) : `${errors.length === 0 ? "-" : mean(errors).toFixed(4)} (${errors.length} seeds)`}`;
});
console.log(`the labels' NMI absolute error by stage (mean over seeds): ${byStage.join(", ")}`);

// coverage of the 90% NMI interval shown at each stage, runs as the unit (runs with intervals only)
const withIntervals = rows.filter((r) => r.coveredByStage.some((c) => c !== null));
if (withIntervals.length > 0) {
  console.log(`\ncoverage of the 90% NMI interval shown at a stage of answers, runs as the unit (${withIntervals.length} runs with intervals; Wilson 95% bounds):`);
  console.log("\n| answers | runs | covered | coverage | Wilson 95% |");
  console.log("|---|---|---|---|---|");
  const share = (covered: number, runs: number) => {
    const [lo, hi] = wilsonInterval(covered, runs);
    return `${covered} | ${runs ? (covered / runs).toFixed(3) : "-"} | [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
  };
  let pooled = [0, 0];
  stages.forEach((a, i) => {
    const held = withIntervals.flatMap((r) => (r.coveredByStage[i] === null ? [] : [r.coveredByStage[i]!]));
    const covered = held.filter(Boolean).length;
    pooled = [pooled[0] + covered, pooled[1] + held.length];
    console.log(`| ${a} | ${held.length} | ${share(covered, held.length)} |`);
  });
  console.log(`| pooled | ${pooled[1]} | ${share(pooled[0], pooled[1])} |`);
}
