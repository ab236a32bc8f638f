/**
 * The `cereal` command line (npm run cereal -- COMMAND ...):
 *   simulate  one oracle simulation of the Cereal loop on a bundle (labels.npy answers every query)
 *   table     a grid of simulations (e.g. the paper's ablation) run as a resumable job that
 *             appends one JSON line per finished run; prints a markdown AEC table
 *   import, add-clustering   a bundle into a new project, a clustering into a project (bin/project-commands.ts)
 *   ace, cluster   label-free evaluation across embedding spaces, candidate clusterings (bin/label-free-commands.ts)
 *   report, recompute   a project's report to a folder, its tables recomputed offline (bin/report-commands.ts)
 *   backup, restore   the data folder as one archive and back (bin/ops-commands.ts)
 *   remote    a running server over its API with an access token: projects, import, status, export (bin/remote-commands.ts)
 * It only composes lib/data (the bundle), lib/cereal (the loop) and models/ (the TF.js surrogate).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdir, open, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { METRIC_KEYS, type MetricKey, type MetricValues } from "@/lib/metrics";
import type { ScoreMode } from "@/lib/cereal/method/acquire";
import { ACQUISITIONS, type Acquisition } from "@/lib/cereal/method/acquisition";
import type { Design } from "@/lib/cereal/method/designs";
import { estimatorByName, ESTIMATORS } from "@/lib/cereal/method/estimators";
import { aecTable, paperGrid, type GridRun } from "@/lib/cereal/harness/grid";
import { fixedSurrogateFactory, probaFromNpy } from "@/lib/cereal/fakes/fixed-surrogate";
import { createKnnSurrogateFactory } from "@/lib/cereal/fakes/knn-surrogate";
import { selectingSurrogateFactory } from "@/lib/cereal/harness/selecting-surrogate";
import { agreeingScore, cellBiasScore, logLossScore } from "@/lib/cereal/harness/family-scores";
import { RECOMMENDED } from "@/lib/cereal/method/recommended";
import { RESIDUAL_MIN_ACCURACY_PERCENT } from "@/lib/cereal/method/surrogate-health";
import { createPairComponentsSurrogateFactory } from "@/lib/cereal/fakes/pair-components-surrogate";
import { PAIR_DESIGNS, RECOMMENDED_PAIRS, type PairDesign } from "@/lib/cereal/pairwise/pair-designs";
import type { PairwiseSurrogateFactory } from "@/lib/cereal/pairwise/pair-surrogate";
import { simulatePairwise } from "@/lib/cereal/harness/pairwise-simulate";
import { PAIRWISE_MEMBERS } from "@/lib/cereal/pairwise/pairwise-round";
import type { CerealProblem } from "@/lib/cereal/method/problem";
import { metricMap, simulate, type RoundRecord, type SimulationResult } from "@/lib/cereal/harness/simulate";
import { estimatorInputFiles, estimatorInputToJson, probaBytes } from "@/lib/cereal/harness/estimator-inputs";
import type { EstimatorInput } from "@/lib/cereal/method/estimators";
import { aecPerAnnotatorHour } from "@/lib/cereal/harness/aec";
import type { SurrogateFactory } from "@/lib/cereal/method/surrogate";
import { ensembleSurrogateFactory } from "@/lib/cereal/method/ensemble-surrogate";
import { loadBundle } from "@/lib/data/bundle";
import { readNpy } from "@/lib/data/npy";
import { residualWhenCalibratedSchema } from "@/lib/server/projects/project-settings";
import { gaussianMixtureSurrogateFactory } from "../models/gaussian-mixture";
import { CommandError, PROJECT_USAGE, runAddClustering, runImport } from "./project-commands";
import { LABEL_FREE_USAGE, runAce, runCluster } from "./label-free-commands";
import { REPORT_USAGE, runRecompute, runReport } from "./report-commands";
import { OPS_USAGE, runBackup, runRestore } from "./ops-commands";
import { REMOTE_USAGE, runRemote } from "./remote-commands";
import { RemoteError } from "./remote-client";
import { parseCompare, runEstimatorsTable, withRecommended } from "./estimator-commands";
import { readJobFile, runGridJobs, type GridJob } from "./grid-jobs";
import { runPairwiseTable } from "./pairwise-commands";
import { answerPace, type AnswerPace } from "./answer-pace";

const SCRIPT = fileURLToPath(import.meta.url);
const RECOMMENDED_TEXT = `${RECOMMENDED.acquisition}, ${RECOMMENDED.design}, ${RECOMMENDED.fixmatch ? "FixMatch" : "supervised"}, ${RECOMMENDED.estimator}`;

class UsageError extends Error {}

const USAGE = `usage:
  cereal simulate --bundle DIR --clustering NAME[,NAME...] --acquisition ${ACQUISITIONS.join("|")}
                  [--fixmatch] [--pseudo | --estimator ${Object.keys(ESTIMATORS).join("|")}] [--seed S] [--seed-size 50]
                  [--batch 50] [--budget 1000] [--steps 512] [--warm-steps S (rounds after the first train on from the previous weights)]
                  [--threshold 0.95] [--surrogate mlp|fake|mixture|select|select-cells|select-both|fixed (select: the MLP or the Gaussian mixture by out-of-sample log-loss; select-cells: by the soft table's cell bias; select-both: the mixture where both prefer it; fixed: pi given in advance by --proba)]
                  [--proba FILE.npy (with --surrogate fixed: pi(.|x) of every item, float32 N x CLASSES, e.g. bench/bayes-bound.ts --write-posterior)]
                  [--fits 1 (the surrogate's probabilities: the mean of N fits, each from its own seed)] [--folds (with --fits N: fit k trains without the labels of fold k)]
                  [--design uniform|top-score|proportional] [--score-mode mean|per-clustering] [--eps 0.1] [--uniform-while-ppi on|off]
                  [--interval-draws 200] [--no-intervals] [--no-timings] [--out FILE.json] [--quiet]
                  [--compare all|NAME,NAME] [--record-predictions] [--save-inputs (each round's estimator input into OUT.inputs/, for bench/estimator-replay.ts)] [--calibrate] [--score-calibrated] [--residual-when-calibrated GAP (the residual score where the earlier models read at least ${RESIDUAL_MIN_ACCURACY_PERCENT}% right and calibrated within GAP)] [--trainer-guard] [--recommended (${RECOMMENDED_TEXT})]
                  [--lag 0 (asynchronous stages drawn with rankings L rounds old)] [--skip-rate 0 (skips: P on hard rows, P/5 elsewhere)]
  cereal simulate --mode pairwise --bundle DIR --clustering NAME[,NAME...] [--pair-design ${PAIR_DESIGNS.join("|")}]
                  [--threshold 0.5 (thresholded pseudo-labels)] [--batch 1000] [--budget 10000] [--seed-size BATCH]
                  [--uniform-share 0] [--outputs 2xCLASSES] [--fits 5 (fits per round; the estimate is their mean)] [--model mlp|linear] [--surrogate mlp|fake] [--seed S] [--no-intervals] [--out FILE.json]
                  [--seconds-per-answer S|project:PROJECT (summary.aecPerAnnotatorHour; both modes; project: the median of its timed answers)] [--pair-ppi (prediction-powered ARI, FMI, NMI, AMI with intervals in byEstimator; uncertain and anchor: from their uniform share)]
                  [--recommended (${RECOMMENDED_PAIRS.pairDesign} pairs, uniform share ${RECOMMENDED_PAIRS.pairUniformShare}: the app's default)]
  cereal table    --bundle DIR --clustering NAME --grid paper|estimators|pairwise [--only 'LABEL|LABEL'] [--report] [--seeds 3] [--budget 1000 (pairwise 2000)] [--batch 50 (pairwise 200)]
                  [--seed-size 50] [--steps 512] [--surrogate mlp|fake] [--parallel 2] [--jobs FILE.jsonl]
                  [--metrics nmi,ami,ari] [--unit rounds|per1000] [--interval-draws 200] [--out FILE.md] [--detach] [--lag 0 (estimators grid)] [--warm-steps S (estimators grid)]
                  [--seconds-per-answer S|project:PROJECT (pairwise: AEC per annotator-hour column)]
${PROJECT_USAGE}
${LABEL_FREE_USAGE}
${REPORT_USAGE}

${OPS_USAGE}

${REMOTE_USAGE}`;

// ---------- shared option parsing ----------

function int(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer, got '${value}'`);
  return n;
}

/** --fits: a round's fits (at least one; default: the pairwise round's members, or one clusterwise) */
function fitsPerRound(value: string | undefined, fallback: number): number {
  const fits = int(value, "fits", fallback);
  if (fits < 1) throw new UsageError(`--fits must be at least 1 (a round fits the surrogate at least once), got '${value}'`);
  return fits;
}

function num(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got '${value}'`);
  return n;
}

/** --residual-when-calibrated: a gap between accuracy and confidence, 0 to 1 */
function calibrationGap(value: string): number {
  const gap = num(value, "residual-when-calibrated", 0.05);
  if (!residualWhenCalibratedSchema.safeParse(gap).success) throw new UsageError(`--residual-when-calibrated is a gap between accuracy and confidence, from 0 to 1 (e.g. 0.05), got '${value}'`);
  return gap;
}

function oneOf<T extends string>(value: string | undefined, name: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got '${value}'`);
  return value as T;
}

/**
 * mixture: the semi-supervised Gaussian mixture (models/gaussian-mixture.ts); select: FixMatch's MLP or the mixture, whichever
 * predicts the batches labeled since with the lower log-loss; select-cells: whichever's soft table reads the smaller cell bias on
 * them (family-scores.ts); select-both: the mixture only where both prefer it (all simulate only)
 */
const CLASS_SURROGATES = ["mlp", "fake", "mixture", "select", "select-cells", "select-both"] as const;

/** the simulator's surrogates: select, select-cells and select-both fit the MLP and the mixture and choose between them each round, and report both (RoundRecord.surrogateCandidates) */
async function simulationSurrogateFactory(name: (typeof CLASS_SURROGATES)[number], problem: CerealProblem): Promise<SurrogateFactory> {
  if (name !== "select" && name !== "select-cells" && name !== "select-both") return surrogateFactory(name);
  const candidates = { mlp: await surrogateFactory("mlp"), mixture: gaussianMixtureSurrogateFactory };
  const cells = cellBiasScore(problem.clusterings);
  const score = name === "select" ? logLossScore : name === "select-cells" ? cells : agreeingScore(logLossScore, cells);
  return selectingSurrogateFactory(candidates, score, problem.clusterings);
}

async function surrogateFactory(name: "mlp" | "fake" | "mixture"): Promise<SurrogateFactory> {
  if (name === "fake") return createKnnSurrogateFactory();
  if (name === "mixture") return gaussianMixtureSurrogateFactory;
  try {
    const models = (await import("../models/index")) as { createMlpSurrogate?: SurrogateFactory };
    if (!models.createMlpSurrogate) throw new Error("models/index.ts does not export createMlpSurrogate");
    return models.createMlpSurrogate;
  } catch (error) {
    throw new Error(`the mlp surrogate (models/index.ts) could not be loaded: ${(error as Error).message}; --surrogate fake runs without TF.js`);
  }
}

async function loadProblem(bundleDir: string, clusterings: string[]): Promise<{ problem: CerealProblem; labels: Int32Array; name: string }> {
  const bundle = await loadBundle(bundleDir, { clusterings });
  if (!bundle.labels) throw new UsageError(`${bundleDir} has no labels.npy: a simulation needs the reference labels as its oracle`);
  return {
    problem: {
      embeddings: { data: bundle.embeddings, n: bundle.n, d: bundle.d },
      numClasses: bundle.numClasses,
      clusterings: bundle.clusterings,
    },
    labels: bundle.labels,
    name: bundle.manifest.name ?? basename(resolve(bundleDir)),
  };
}

// ---------- simulate ----------

const SIMULATE_OPTIONS = {
  bundle: { type: "string" },
  clustering: { type: "string" },
  acquisition: { type: "string" },
  fixmatch: { type: "boolean", default: false },
  pseudo: { type: "boolean", default: false },
  estimator: { type: "string" },
  seed: { type: "string" },
  "seed-size": { type: "string" },
  batch: { type: "string" },
  budget: { type: "string" },
  steps: { type: "string" },
  "warm-steps": { type: "string" },
  threshold: { type: "string" },
  surrogate: { type: "string" },
  proba: { type: "string" },
  design: { type: "string" },
  "score-mode": { type: "string" },
  eps: { type: "string" },
  "uniform-while-ppi": { type: "string" },
  "interval-draws": { type: "string" },
  "no-intervals": { type: "boolean", default: false },
  "record-predictions": { type: "boolean", default: false },
  "save-inputs": { type: "boolean", default: false },
  folds: { type: "boolean", default: false },
  "no-timings": { type: "boolean", default: false },
  out: { type: "string" },
  quiet: { type: "boolean", default: false },
  compare: { type: "string" },
  calibrate: { type: "boolean", default: false },
  "score-calibrated": { type: "boolean", default: false },
  "residual-when-calibrated": { type: "string" },
  recommended: { type: "boolean", default: false },
  "trainer-guard": { type: "boolean", default: false },
  mode: { type: "string" },
  "pair-design": { type: "string" },
  outputs: { type: "string" },
  fits: { type: "string" },
  model: { type: "string" },
  "uniform-share": { type: "string" },
  "seconds-per-answer": { type: "string" },
  "pair-ppi": { type: "boolean", default: false },
  lag: { type: "string" },
  "skip-rate": { type: "string" },
} as const;

/** --seconds-per-answer: the summary adds aecPerAnnotatorHour (x in hours of answering at that pace) and where the pace comes from */
function withAnnotatorHours<S extends { aecPer1000Labels: MetricValues }>(
  summary: S,
  pace: AnswerPace | undefined,
): S | (S & { aecPerAnnotatorHour: MetricValues; secondsPerAnswer: number; secondsPerAnswerSource: string }) {
  if (pace === undefined) return summary;
  return { ...summary, secondsPerAnswer: pace.seconds, secondsPerAnswerSource: pace.source, aecPerAnnotatorHour: metricMap((k) => aecPerAnnotatorHour(summary.aecPer1000Labels[k], pace.seconds)) };
}

function formatRound(r: RoundRecord, clusterings: string[]): string {
  const parts = clusterings.map((c) => {
    const interval = r.interval ? ` [${r.interval[c].nmi[0].toFixed(3)}, ${r.interval[c].nmi[1].toFixed(3)}]` : "";
    return `${c} nmi ${r.estimate[c].nmi.toFixed(4)}${interval} true ${r.true[c].nmi.toFixed(4)} err ${r.absErr[c].nmi.toFixed(4)}`;
  });
  const acc =
    r.surrogateAccuracyOnUnlabeled === null
      ? ""
      : ` acc ${r.surrogateAccuracyOnUnlabeled.toFixed(3)} conf ${r.surrogateConfidenceOnUnlabeled!.toFixed(3)}`;
  const secs = r.roundSeconds === null ? "" : ` ${r.roundSeconds.toFixed(1)}s`;
  return `round ${r.round} n=${r.nLabels}${acc}${secs} | ${parts.join(" | ")}`;
}

async function runSimulate(argv: string[]): Promise<void> {
  const { values: given } = parseArgs({ args: argv, options: SIMULATE_OPTIONS, strict: true });
  const values = given.recommended ? withRecommended(given) : given;
  if (oneOf(values.mode, "mode", ["clusterwise", "pairwise"] as const, "clusterwise") === "pairwise") return runPairwiseSimulate(values);
  if (!values.bundle || !values.clustering || !values.acquisition) throw new UsageError("simulate needs --bundle, --clustering and --acquisition");
  const acquisition = oneOf<Acquisition>(values.acquisition, "acquisition", ACQUISITIONS, "random");
  const estimatorName = values.estimator ?? (values.pseudo ? "argmax" : "labels");
  if (values.estimator && values.pseudo && values.estimator !== "argmax") throw new UsageError("--pseudo means --estimator argmax; pass one of them");
  const estimator = estimatorByName(estimatorName);
  const clusterings = values.clustering.split(",").filter((s) => s.length > 0);
  const { problem, labels, name } = await loadProblem(values.bundle, clusterings);
  const fits = fitsPerRound(values.fits, 1);
  const surrogateKind = oneOf(values.surrogate, "surrogate", [...CLASS_SURROGATES, "fixed"] as const, "mlp");
  if (values.folds && fits < 2) throw new UsageError("--folds needs --fits 2 or more: each fit trains without one fold of the labels");
  const surrogateName = fits === 1 ? surrogateKind : `${surrogateKind} x${fits}${values.folds ? " folds" : ""}`;
  const quiet = values.quiet;
  const pace = await answerPace(values["seconds-per-answer"], "clusterwise");
  const skipRate = num(values["skip-rate"], "skip-rate", 0);
  if (skipRate < 0 || skipRate > 1) throw new UsageError(`--skip-rate must be a probability in [0, 1], got '${values["skip-rate"]}'`);
  if (values["save-inputs"] && !values.out) throw new UsageError("--save-inputs writes each round's estimator input beside the run, into OUT.inputs/: pass --out OUT");
  const inputsDir = values["save-inputs"] ? `${values.out}.inputs` : null;
  if (inputsDir) await mkdir(inputsDir, { recursive: true });
  const started = performance.now();

  if ((surrogateKind === "fixed") !== (values.proba !== undefined)) throw new UsageError("--surrogate fixed and --proba FILE.npy go together: the fixed surrogate's pi is read from the file");
  const oneFit =
    surrogateKind === "fixed"
      ? fixedSurrogateFactory(probaFromNpy(await readNpy(values.proba!), problem.embeddings.n, problem.numClasses, `--proba ${values.proba}`))
      : await simulationSurrogateFactory(surrogateKind, problem);
  const result: SimulationResult = await simulate(problem, labels, fits === 1 ? oneFit : ensembleSurrogateFactory(oneFit, fits, { folds: values.folds }), {
    acquisition,
    estimator,
    fixmatch: values.fixmatch,
    seed: int(values.seed, "seed", 0),
    seedSize: int(values["seed-size"], "seed-size", 50),
    batch: int(values.batch, "batch", 50),
    budget: int(values.budget, "budget", 1000),
    steps: values.steps === undefined ? undefined : int(values.steps, "steps", 512),
    warmSteps: values["warm-steps"] === undefined ? undefined : int(values["warm-steps"], "warm-steps", 256),
    threshold: values.threshold === undefined ? undefined : num(values.threshold, "threshold", 0.95),
    design: values.design === undefined ? undefined : oneOf<Design>(values.design, "design", ["uniform", "top-score", "proportional"], "uniform"),
    scoreMode: oneOf<ScoreMode>(values["score-mode"], "score-mode", ["mean", "per-clustering"], "mean"),
    eps: num(values.eps, "eps", 0.1),
    uniformWhileLabelsCarry: oneOf(values["uniform-while-ppi"], "uniform-while-ppi", ["on", "off"] as const, "off") === "on",
    intervals: values["no-intervals"] ? false : { draws: int(values["interval-draws"], "interval-draws", 200) },
    timings: !values["no-timings"],
    onRound: quiet ? undefined : (r) => process.stderr.write(formatRound(r, clusterings) + "\n"),
    compare: parseCompare(values.compare),
    calibrate: values.calibrate,
    scoreCalibrated: values["score-calibrated"],
    residualWhenCalibrated: values["residual-when-calibrated"] === undefined ? undefined : calibrationGap(values["residual-when-calibrated"]),
    trainerGuard: values["trainer-guard"],
    lag: int(values.lag, "lag", 0),
    skipRate,
    recordPredictions: values["record-predictions"],
    onEstimatorInput: inputsDir ? (round, input) => saveEstimatorInput(inputsDir, round, input) : undefined,
  });
  const output = { bundle: name, surrogate: surrogateName, ...result, summary: withAnnotatorHours(result.summary, pace), config: { ...result.config, bundle: name, surrogate: surrogateName } };
  const json = JSON.stringify(output);
  if (values.out) {
    await mkdir(dirname(resolve(values.out)), { recursive: true });
    await writeFile(values.out, json + "\n");
  } else process.stdout.write(json + "\n");
  if (!quiet) {
    const aec = METRIC_KEYS.map((k) => `${k} ${result.summary.aec[k].toFixed(4)}`).join(", ");
    process.stderr.write(`AEC (rounds): ${aec}; ${((performance.now() - started) / 1000).toFixed(1)} s${values.out ? `; wrote ${values.out}` : ""}\n`);
  }
}

/** simulate --save-inputs: a round's estimator input and its pi's raw Float32 values into DIR (estimatorInputFiles; bench/estimator-replay.ts reads them) */
function saveEstimatorInput(dir: string, round: number, input: EstimatorInput): void {
  const { json, proba } = estimatorInputToJson(input);
  const files = estimatorInputFiles(round);
  writeFileSync(join(dir, files.json), JSON.stringify(json));
  if (proba) writeFileSync(join(dir, files.proba), probaBytes(proba));
}

/** simulate --mode pairwise: same/different answers from labels.npy, the L2C surrogate, a pair design */
async function runPairwiseSimulate(values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof SIMULATE_OPTIONS; strict: true }>>["values"]): Promise<void> {
  if (!values.bundle || !values.clustering) throw new UsageError("simulate --mode pairwise needs --bundle and --clustering");
  if (values.lag !== undefined || values["skip-rate"] !== undefined) throw new UsageError("--lag and --skip-rate are for the clusterwise simulation; drop them with --mode pairwise");
  const clusterings = values.clustering.split(",").filter((s) => s.length > 0);
  const { problem, labels, name } = await loadProblem(values.bundle, clusterings);
  const surrogateName = oneOf(values.surrogate, "surrogate", ["mlp", "fake"] as const, "mlp");
  const model = oneOf(values.model, "model", ["mlp", "linear"] as const, "mlp");
  const pace = await answerPace(values["seconds-per-answer"], "pairwise");
  const factory: PairwiseSurrogateFactory =
    surrogateName === "fake" ? createPairComponentsSurrogateFactory() : (await import("../models/mcl-surrogate")).mclSurrogateFactory({ model });
  const started = performance.now();
  const batch = int(values.batch, "batch", 1000);
  // --recommended: the app's recommended pair design and uniform share, where the command line does not say otherwise
  const recommended = values.recommended ? RECOMMENDED_PAIRS : null;
  const result = await simulatePairwise(problem, labels, factory, {
    design: oneOf<PairDesign>(values["pair-design"] ?? recommended?.pairDesign, "pair-design", PAIR_DESIGNS, "random"),
    // --threshold T in pairwise mode: estimate on items with max p > T (plus the pair-labeled ones)
    strategy: values.threshold === undefined ? "all" : "thresholded",
    threshold: values.threshold === undefined ? undefined : num(values.threshold, "threshold", 0.5),
    seed: int(values.seed, "seed", 0),
    seedSize: int(values["seed-size"], "seed-size", batch),
    batch,
    budget: int(values.budget, "budget", 10000),
    numOutputs: values.outputs === undefined ? undefined : int(values.outputs, "outputs", 20),
    members: fitsPerRound(values.fits, PAIRWISE_MEMBERS),
    designOptions: { uniformShare: num(values["uniform-share"], "uniform-share", recommended?.pairUniformShare ?? 0) },
    pairPpi: values["pair-ppi"],
    intervals: values["no-intervals"] ? false : { draws: int(values["interval-draws"], "interval-draws", 200) },
    timings: !values["no-timings"],
    onRound: values.quiet
      ? undefined
      : (r) =>
          process.stderr.write(
            `${formatRound(r, clusterings)} | pair acc ${r.pairAccuracy?.toFixed(3) ?? "-"} same ${r.positiveShare.toFixed(3)} kept ${r.estimatedShare.toFixed(3)} ids ${r.clustersUsed}\n`,
          ),
  });
  const output = { bundle: name, surrogate: surrogateName, ...result, summary: withAnnotatorHours(result.summary, pace), config: { ...result.config, bundle: name, surrogate: surrogateName, model } };
  const json = JSON.stringify(output);
  if (values.out) {
    await mkdir(dirname(resolve(values.out)), { recursive: true });
    await writeFile(values.out, json + "\n");
  } else process.stdout.write(json + "\n");
  if (!values.quiet) {
    const aec = METRIC_KEYS.map((k) => `${k} ${result.summary.aec[k].toFixed(4)}`).join(", ");
    process.stderr.write(`AEC (rounds): ${aec}; ${((performance.now() - started) / 1000).toFixed(1)} s${values.out ? `; wrote ${values.out}` : ""}\n`);
  }
}

// ---------- table ----------

const TABLE_OPTIONS = {
  bundle: { type: "string" },
  clustering: { type: "string" },
  grid: { type: "string", default: "paper" },
  seeds: { type: "string" },
  budget: { type: "string" },
  batch: { type: "string" },
  "seed-size": { type: "string" },
  steps: { type: "string" },
  surrogate: { type: "string" },
  parallel: { type: "string" },
  jobs: { type: "string" },
  metrics: { type: "string" },
  unit: { type: "string" },
  "interval-draws": { type: "string" },
  out: { type: "string" },
  detach: { type: "boolean", default: false },
  only: { type: "string" },
  report: { type: "boolean", default: false },
  "seconds-per-answer": { type: "string" },
  lag: { type: "string" },
  "warm-steps": { type: "string" },
} as const;

function runChild(args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...process.execArgv, SCRIPT, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`simulate ${args.join(" ")} exited with ${code}: ${stderr.trim()}`))));
  });
}

async function runTable(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: TABLE_OPTIONS, strict: true });
  if (!values.bundle || !values.clustering) throw new UsageError("table needs --bundle and --clustering");
  if (values.grid !== "paper" && values.grid !== "estimators" && values.grid !== "pairwise") throw new UsageError(`unknown --grid '${values.grid}' (known: paper, estimators, pairwise)`);
  if (values.lag !== undefined && values.grid !== "estimators") throw new UsageError("--lag runs with --grid estimators only");
  if (values["warm-steps"] !== undefined && values.grid !== "estimators") throw new UsageError("--warm-steps runs with --grid estimators only");
  const pairwise = values.grid === "pairwise";
  const seeds = int(values.seeds, "seeds", 3);
  // pairwise: answers are cheaper and say less each, so larger batches (the seed stage is one batch)
  const budget = int(values.budget, "budget", pairwise ? 2000 : 1000);
  const batch = int(values.batch, "batch", pairwise ? 200 : 50);
  const seedSize = int(values["seed-size"], "seed-size", pairwise ? batch : 50);
  const steps = values.steps === undefined ? undefined : int(values.steps, "steps", 512);
  const surrogate = oneOf(values.surrogate, "surrogate", ["mlp", "fake"] as const, "mlp");
  const parallel = Math.max(1, int(values.parallel, "parallel", 2));
  const metrics = (values.metrics ?? "nmi,ami,ari").split(",").map((m) => oneOf<MetricKey>(m, "metrics", METRIC_KEYS, "nmi"));
  const unit = oneOf(values.unit, "unit", ["rounds", "per1000"] as const, "rounds");
  const bundleName = basename(resolve(values.bundle));
  const settings = `${bundleName}|${values.clustering}|${surrogate}|seed-size=${seedSize}|batch=${batch}|budget=${budget}|steps=${steps ?? "default"}`;
  const jobs = values.jobs ?? join("var", "cereal", `table-${bundleName}-${values.clustering}-${surrogate}-b${budget}.jsonl`);

  if (values.detach) {
    // a long grid outlives the terminal: re-run this command in the background, logging to a file
    await mkdir(dirname(resolve(jobs)), { recursive: true });
    const log = await open(`${jobs}.log`, "a");
    const child = spawn(process.execPath, [...process.execArgv, SCRIPT, "table", ...argv.filter((a) => a !== "--detach"), "--jobs", jobs], {
      detached: true,
      stdio: ["ignore", log.fd, log.fd],
    });
    child.unref();
    await log.close();
    process.stdout.write(`table job started (pid ${child.pid}); runs append to ${jobs}, progress in ${jobs}.log; re-run to resume\n`);
    return;
  }

  if (pairwise)
    return runPairwiseTable({
      bundle: values.bundle, clustering: values.clustering, seeds, budget, batch, seedSize, surrogate, parallel,
      jobs: values.jobs, intervalDraws: values["interval-draws"], out: values.out, reportOnly: values.report, runChild,
      pace: await answerPace(values["seconds-per-answer"], "pairwise"),
    });
  if (values.grid === "estimators")
    return runEstimatorsTable({
      bundle: values.bundle, clustering: values.clustering, seeds, budget, batch, seedSize, steps, surrogate, parallel,
      jobs: values.jobs, intervalDraws: values["interval-draws"], out: values.out, only: values.only, reportOnly: values.report, runChild,
      lag: int(values.lag, "lag", 0),
      warmSteps: values["warm-steps"] === undefined ? undefined : int(values["warm-steps"], "warm-steps", 256),
    });
  const grid = paperGrid();
  await mkdir(dirname(resolve(jobs)), { recursive: true });
  const done = new Set((await readJobFile<GridRun>(jobs)).map((l) => l.key));
  const todo: GridJob[] = [];
  for (let seed = 0; seed < seeds; seed++)
    for (const config of grid) {
      const key = `${settings}|${config.label}|seed=${seed}`;
      if (done.has(key)) continue;
      todo.push({
        key,
        label: config.label,
        seed,
        argv: [
          "simulate",
          "--bundle", values.bundle,
          "--clustering", values.clustering,
          "--acquisition", config.acquisition,
          "--seed", String(seed),
          "--seed-size", String(seedSize),
          "--batch", String(batch),
          "--budget", String(budget),
          "--surrogate", surrogate,
          "--quiet",
          ...(config.fixmatch ? ["--fixmatch"] : []),
          ...(config.pseudo ? ["--pseudo"] : []),
          ...(steps === undefined ? [] : ["--steps", String(steps)]),
          ...(values["interval-draws"] ? ["--interval-draws", values["interval-draws"]] : []),
        ],
      });
    }
  const total = grid.length * seeds;
  process.stderr.write(`${total - todo.length} of ${total} runs already in ${jobs}; ${todo.length} to go, ${parallel} at a time\n`);
  const clustering = values.clustering;
  const failures = await runGridJobs<GridRun>({
    jobs,
    todo,
    parallel,
    runChild,
    line: (job, result, seconds) => ({
      key: job.key,
      label: job.label,
      seed: job.seed,
      aec: result.summary.aec,
      aecPer1000Labels: result.summary.aecPer1000Labels,
      finalAbsErr: result.summary.finalAbsErr[clustering],
      seconds,
    }),
    describe: (line) => `: AEC nmi ${line.aec.nmi.toFixed(4)} (${line.seconds.toFixed(0)} s)`,
  });

  const lines = (await readJobFile<GridRun>(jobs)).filter((l) => l.key.startsWith(settings + "|"));
  const table = aecTable(grid, lines, metrics, unit);
  if (values.out) await writeFile(values.out, table + "\n");
  process.stdout.write(table + "\n");
  if (failures > 0) throw new Error(`${failures} run(s) failed; re-run the same command to retry them`);
}

// ---------- main ----------

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === "simulate") return runSimulate(rest);
  if (command === "table") return runTable(rest);
  if (command === "import") return void (await runImport(rest));
  if (command === "add-clustering") return void (await runAddClustering(rest));
  if (command === "ace") return runAce(rest);
  if (command === "cluster") return runCluster(rest);
  if (command === "report") return void (await runReport(rest));
  if (command === "recompute") return void (await runRecompute(rest, surrogateFactory));
  if (command === "backup") return void (await runBackup(rest));
  if (command === "restore") return void (await runRestore(rest));
  if (command === "remote") return void (await runRemote(rest));
  if (command === undefined || command === "help" || command === "--help") {
    process.stdout.write(USAGE + "\n");
    return;
  }
  throw new UsageError(`unknown command '${command}'`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof RemoteError) process.stderr.write(`cereal: ${error.message}\n`);
  else if (error instanceof UsageError || error instanceof CommandError) process.stderr.write(`cereal: ${error.message}\n${USAGE}\n`);
  else process.stderr.write(`cereal: ${(error as Error).message}\n`);
  process.exitCode = error instanceof UsageError || error instanceof CommandError ? 2 : 1;
});
