/**
 * Pairwise point estimates and intervals against the argmax one (issue 25), on random-pairs
 * simulations: labels.npy answers "same class or not?", rounds run runPairwiseRound (the MCL
 * surrogate, no bootstrap intervals), as `simulate --mode pairwise --pair-design random` does.
 * Each run's answered pairs and every round's p(.|x) are cached under --cache (resumable: a seed
 * already there is not run again); with --members E, E - 1 more fits of every round on the same
 * training pairs with other seeds are cached beside it (`SEED.mM.bin`, member M; the pairs do not
 * depend on the model, since random pairs ignore it). The estimates are computed from the cache.
 *
 *   nice -n 19 node --import tsx bench/pair-ppi.ts --bundle data/digits [--clustering kmeans_k10]
 *        [--seeds 0-99] [--batch 200] [--budget 1000] [--members 1] [--cache /tmp/pair-ppi] [--no-run]
 *        [--paired VARIANT,VARIANT] [--surrogate mcl|mcl-paper|mcl-consistency|mcl-bag|mcl-s300|mcl-s1600|mcl-constant|mcl-h10|mcl-bayes|mcl-bayes4] [--versus mcl-paper]
 *        [--outputs K] [--by-stage VARIANT,VARIANT] [--dump FILE]
 *
 * --surrogate picks the pairwise surrogate's training (SURROGATES; the default, mcl, is the app's);
 * another one caches under its own folder. Fits are the app's round's: member m of a seed is the
 * app's fit m (fitPairwiseRound's seeds), so with `--members 5` the `blend-5-tuned (the app)` variant
 * is exactly the app's estimate (PAIRWISE_MEMBERS fits), `ensemble-5` the app's before the consensus
 * (issue #25) and `argmax` its first fit alone.
 * --outputs K sets the surrogate's number of cluster ids K' (default: the app's, defaultNumOutputs: twice the bundle's
 * classes); another K' caches under its own folder (`-kK`); --versus reads the versus surrogate's runs at the default K'.
 * --no-run reports the seeds already cached (with all members). Runs are made member by member
 * (every seed's member 0, then every seed's member 1, ...), so a stopped bench leaves whole members.
 * Prints per variant and metric: AEC per 1,000 answers (mean +- standard error over runs), the
 * paired ratio to argmax (with --versus V: to V's argmax), the runs where it beats that, and the 90% interval coverage of the
 * variants with intervals, runs as the unit (mean of each run's share of rounds whose interval
 * holds the truth), and at each run's last round. Variants:
 *   argmax            NMI etc. of the argmax ids of member 0's fit (one fit: the app's estimate before PAIRWISE_MEMBERS)
 *   soft              the expected table of member 0's p(.|x) (estimators-soft.ts)
 *   last-2            the mean of argmax's estimates at this round and the one before
 *   pair-ppi          argmax + the full pair-count correction (pairPpiEstimate, weight "full")
 *   pair-ppi-tuned    argmax + the correction with its squared-error weight (weight "tuned")
 *   ensemble-E        the mean of E fits' argmax estimates (E = 2 .. members)
 *   argmax (V)        with --versus V: the argmax estimate of surrogate V's cached fit (the ratios' base)
 *   argmax (V) + this g, tuned   V's argmax with the tuned correction whose g is this surrogate's
 *                     (two fits per round)
 *   ensemble-E-ppi-tuned / -ppi   the same corrections on the ensemble: g is the E fits' mean
 *                     same-probability, the base the ensemble's estimate
 *   ensemble-E, first fit's g   ensemble-E with the interval the app gave it: the
 *                     full correction with member 0's g around the ensemble's estimate
 *   consensus-E       the argmax estimate of the E fits' consensus: their p(.|x) averaged after
 *                     renaming each fit's ids to the first's (alignedMean)
 *   blend-E           ensemble-E moved toward consensus-E by w = (FMI_ppi - FMI_ens) / (FMI_cons -
 *                     FMI_ens) in [0, 1], FMI_ppi the pair counts' (first fit's g) around the ensemble
 *   blend-E-tuned / -tuned-eg   the same with the tuned correction's FMI (first fit's g / the fits' mean g), with the
 *                     interval the app gives them (the first fit's g around them); blend-5-tuned is the app's round
 *   blend-E-tuned last-2 / last-2 at 2:1  blend-E-tuned averaged with its value at the round before (weights 1:1 / 2:1)
 *   blend-E-tuned-informed   blend-E-tuned only once the drawing models are informative (drawingModelsInformative,
 *                     the NMI intervals' rule; round 0 never), else ensemble-E
 *   the app's 5 fits  with another --surrogate whose member 0 is mcl's (mcl-bag, -bayes, -bayes4) and mcl's five
 *                     fits of the seed cached: the app's estimate from them (blend-5-tuned of mcl)
 *   mix-E toward the app's consensus   the mean of the app's five fits' and this surrogate's members 1..E-1's
 *                     estimates, moved toward the app's fits' consensus as the app moves its mean
 * --paired A,B prints variant A's AEC minus B's per metric over the same runs (mean +- standard error).
 * --by-stage A,B,... prints each variant's NMI error by stage: its mean over the runs (the bias), s.d. and root mean square.
 * --dump FILE (with --members >= 2) writes one JSON row per run and round: the seed, round, answers and "same" answers so far,
 * the true metrics, every fit's argmax estimate, the consensus's, the app's, the --versus base's, and the pair counts' FMI
 * (tuned and full, around the fits' mean), for replaying rules on the cached runs without refitting.
 * Then per stage the drawing models' fit to the answers: corr(f, g) of member 0 and of the ensemble.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { aec } from "@/lib/cereal/harness/aec";
import { probaFromBytes } from "@/lib/cereal/harness/estimator-inputs";
import { argmaxEstimator, estimateMetrics, type Estimator } from "@/lib/cereal/method/estimators";
import { softEstimator } from "@/lib/cereal/method/estimators-soft";
import { drawUniformPairs, recordPairDraws, type PairDrawRecord } from "@/lib/cereal/pairwise/pair-designs";
import { addAligned, movedToward } from "@/lib/cereal/pairwise/fit-consensus";
import { drawingModelsInformative, modelsOfDrawingRounds, pairCountIntervals, pairCounts, pairPpiEstimate, stagesByRound, type PairCorrectionWeight } from "@/lib/cereal/pairwise/pair-count-ppi";
import { defaultNumOutputs, sameProbability } from "@/lib/cereal/pairwise/pair-surrogate";
import { pairwiseEstimatorInput } from "@/lib/cereal/pairwise/pairwise-estimate";
import { addPairAnswers, fitPairwiseRound, initialPairwiseState, PAIRWISE_MEMBERS, runPairwiseRound, type PairwiseState } from "@/lib/cereal/pairwise/pairwise-round";
import { deriveSeed, Random } from "@/lib/random/named-streams";
import { loadBundle } from "@/lib/data/bundle";
import { contingency, METRIC_KEYS, metricsFromTable, type MetricKey, type MetricValues } from "@/lib/metrics";
import type { Interval, IntervalReport } from "@/lib/cereal/method/intervals";
import type { PairwiseSurrogateConfig } from "@/models/mcl-surrogate";
import { mean, meanMetrics, sd, se } from "./sample-stats";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** one cached run: the answered pairs with their draw round and q; p(.|x) of every round in `${seed}.bin` */
interface CachedRun {
  readonly seed: number;
  readonly n: number;
  readonly k: number;
  readonly rounds: number;
  readonly a: number[];
  readonly b: number[];
  readonly same: number[];
  readonly round: number[];
  readonly q: number[];
}

const bundleDir = arg("bundle", "data/digits");
const clustering = arg("clustering", "kmeans_k10");
const [from, to] = arg("seeds", "0-19").split("-").map(Number);
const batch = Number(arg("batch", "200"));
const budget = Number(arg("budget", "1000"));
const members = Number(arg("members", "1"));
/**
 * The pairwise surrogate's trainings: its configuration and the share of answers held out of the
 * fit (PairwiseRoundOptions.holdOut). `mcl` is the app's; `mcl-paper` is the app's before the
 * cosine step size and training on every answer (issue #25: the paper's constant 0.01, 10% held
 * out), the base of the issue's ratios; `mcl-consistency` adds FixMatch's consistency term;
 * `mcl-s300` stops at 300 steps (half the app's), `mcl-s1600` at 1,600 (so 50 epochs up to 1,000 pairs,
 * where the app's 600 steps give 19); `mcl-constant` is the app's with the paper's constant step size, `mcl-h10` the
 * app's with 10% held out (the two halves of the change from `mcl-paper` to `mcl`); `mcl-bag` fits members m >= 1 on a bootstrap
 * resample of the round's pairs (`bag`; member 0, the drawing model, on all of them, as the app's,
 * so a copy of mcl's member-0 files saves its runs); `mcl-bayes` and `mcl-bayes4` fit them on every pair with a random
 * weight (the Bayesian bootstrap: Gamma(alpha) weights of mean 1, alpha 1 and 4; a weight's variance is 1 / alpha, the
 * bootstrap's counts have 1), no pair left out as the bootstrap leaves a third. A weight is given by repeating each pair
 * about WEIGHT_COPIES w times (stochastic rounding) and passing 1 / WEIGHT_COPIES of the epochs, so the fit takes the
 * app's number of steps.
 */
const WEIGHT_COPIES = 8;
const SURROGATES: Record<string, { readonly config: PairwiseSurrogateConfig; readonly holdOut: number; readonly bag?: boolean; readonly weightShape?: number }> = {
  mcl: { config: { model: "mlp" }, holdOut: 0 },
  "mcl-paper": { config: { model: "mlp", mcl: { schedule: "constant" } }, holdOut: 0.1 },
  "mcl-consistency": { config: { model: "mlp", mcl: { consistency: {} } }, holdOut: 0 },
  "mcl-bag": { config: { model: "mlp" }, holdOut: 0, bag: true },
  "mcl-s300": { config: { model: "mlp", mcl: { maxSteps: 300 } }, holdOut: 0 },
  "mcl-s1600": { config: { model: "mlp", mcl: { maxSteps: 1600 } }, holdOut: 0 },
  "mcl-constant": { config: { model: "mlp", mcl: { schedule: "constant" } }, holdOut: 0 },
  "mcl-h10": { config: { model: "mlp" }, holdOut: 0.1 },
  "mcl-bayes": { config: { model: "mlp", mcl: { epochs: 50 / WEIGHT_COPIES } }, holdOut: 0, weightShape: 1 },
  "mcl-bayes4": { config: { model: "mlp", mcl: { epochs: 50 / WEIGHT_COPIES } }, holdOut: 0, weightShape: 4 },
};
const surrogateName = arg("surrogate", "mcl");
const surrogateConfig = SURROGATES[surrogateName]?.config;
const holdOut = SURROGATES[surrogateName]?.holdOut;
if (!surrogateConfig) throw new Error(`--surrogate: one of ${Object.keys(SURROGATES).join(", ")}`);
const outputsArg = process.argv.includes("--outputs") ? Number(arg("outputs", "")) : null;
if (outputsArg !== null && !(Number.isInteger(outputsArg) && outputsArg >= 2)) throw new Error("--outputs: an integer K' >= 2");
const cacheOf = (name: string, outputs = outputsArg) =>
  join(
    arg("cache", "/tmp/pair-ppi"),
    `${bundleDir.split("/").filter(Boolean).pop()}-${clustering}-${batch}-${budget}${name === "mcl" ? "" : `-${name}`}${outputs === null ? "" : `-k${outputs}`}`,
  );
const cache = cacheOf(surrogateName);
/** --versus NAME: the ratios are to the argmax estimate of surrogate NAME's cached runs (same seeds, same pairs) */
const versus = process.argv.includes("--versus") ? arg("versus", "mcl") : null;
if (versus !== null && !SURROGATES[versus]) throw new Error(`--versus: one of ${Object.keys(SURROGATES).join(", ")}`);
const baselineName = versus === null ? "argmax" : `argmax (${versus})`;
mkdirSync(cache, { recursive: true });

const bundle = await loadBundle(bundleDir, { clusterings: [clustering] });
if (!bundle.labels) throw new Error(`${bundleDir} has no labels.npy`);
const labels = bundle.labels;
const problem = { embeddings: { data: bundle.embeddings, n: bundle.n, d: bundle.d }, numClasses: bundle.numClasses, clusterings: bundle.clusterings };
const n = bundle.n;
const defaultK = defaultNumOutputs(bundle.numClasses);
const k = outputsArg ?? defaultK;
const memberFile = (seed: number, m: number, dir = cache) => join(dir, m === 0 ? `${seed}.bin` : `${seed}.m${m}.bin`);
/** the p(.|x) of every round of one cached fit, [rounds][n x k] */
function roundModels(file: string, rounds: number, outputs = k): Float32Array[] {
  const all = probaFromBytes(readFileSync(file));
  return Array.from({ length: rounds }, (_, r) => all.subarray(r * n * outputs, (r + 1) * n * outputs));
}

async function run(seed: number): Promise<void> {
  const { mclSurrogateFactory } = await import("@/models/mcl-surrogate");
  const oracle = (draws: readonly PairDrawRecord[]) => Uint8Array.from(draws, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0));
  const seedDraws = recordPairDraws(drawUniformPairs(n, Math.min(batch, budget), Random.from(seed, "seed-batch")), "uniform", 0, 0);
  let state = initialPairwiseState(problem, seedDraws, oracle(seedDraws));
  const surrogate = await mclSurrogateFactory(surrogateConfig)(problem.embeddings, k);
  const probas: Float32Array[] = [];
  try {
    for (;;) {
      const result = await runPairwiseRound(state, surrogate, { design: "random", strategy: "all", batch: Math.max(0, Math.min(batch, budget - state.pairs.a.length)), seed, holdOut, members: 1, intervals: false });
      probas.push(result.proba!);
      if (result.next.length === 0) break;
      state = addPairAnswers(state, result.next, oracle(result.next));
    }
  } finally {
    surrogate.dispose();
  }
  writeFileSync(memberFile(seed, 0), Buffer.concat(probas.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
  const cached: CachedRun = { seed, n, k, rounds: probas.length, a: [...state.pairs.a], b: [...state.pairs.b], same: [...state.pairs.same], round: state.draws.map((d) => d.round), q: state.draws.map((d) => d.q) };
  writeFileSync(join(cache, `${seed}.json`), JSON.stringify(cached));
}

/** the fits' p(.|x) averaged after renaming each fit's ids to the first's (fit-consensus.ts addAligned, as the app's round) */
function alignedMean(probas: readonly Float32Array[]): Float32Array {
  const sum = Float32Array.from(probas[0]);
  for (const p of probas.slice(1)) addAligned(sum, probas[0], p, k);
  return sum.map((v) => v / probas.length);
}

/** the answered pairs of rounds 0..r of a cached run, and their draw records */
function pairsUpTo(c: CachedRun, r: number) {
  const upTo = c.round.flatMap((x, i) => (x <= r ? [i] : []));
  return {
    pairs: { a: Int32Array.from(upTo, (i) => c.a[i]), b: Int32Array.from(upTo, (i) => c.b[i]), same: Uint8Array.from(upTo, (i) => c.same[i]) },
    // random pairs: every draw is a uniform one (no score)
    draws: upTo.map((i) => ({ round: c.round[i], q: c.q[i], design: "uniform", score: null })),
  };
}

/** a bootstrap resample of n pairs: n indices drawn with replacement */
function bootstrapPick(n: number, random: Random): Int32Array {
  return Int32Array.from({ length: n }, () => random.int(n));
}

/** every pair i repeated about WEIGHT_COPIES w_i times (stochastic rounding), w_i ~ Gamma(shape) / shape (mean 1) */
function weightedPick(n: number, shape: number, random: Random): Int32Array {
  const pick: number[] = [];
  for (let i = 0; i < n; i++) {
    let g = 0;
    for (let j = 0; j < shape; j++) g -= Math.log(1 - random.next());
    const copies = (WEIGHT_COPIES * g) / shape;
    const whole = Math.floor(copies) + (random.next() < copies - Math.floor(copies) ? 1 : 0);
    for (let j = 0; j < whole; j++) pick.push(i);
  }
  return Int32Array.from(pick);
}

/** member m >= 1: every round of run `seed` fitted again on its pairs (own hold-out split and weights) */
async function refit(seed: number, m: number): Promise<void> {
  const { mclSurrogateFactory } = await import("@/models/mcl-surrogate");
  const c = JSON.parse(readFileSync(join(cache, `${seed}.json`), "utf8")) as CachedRun;
  const surrogate = await mclSurrogateFactory(surrogateConfig)(problem.embeddings, k);
  const probas: Float32Array[] = [];
  try {
    for (let r = 0; r < c.rounds; r++) {
      let { pairs } = pairsUpTo(c, r);
      const { bag, weightShape } = SURROGATES[surrogateName];
      const pick = bag ? bootstrapPick(pairs.a.length, Random.from(seed, "bag", m, r)) : weightShape ? weightedPick(pairs.a.length, weightShape, Random.from(seed, "bayes", m, r)) : null;
      if (pick) pairs = { a: Int32Array.from(pick, (i) => pairs.a[i]), b: Int32Array.from(pick, (i) => pairs.b[i]), same: Uint8Array.from(pick, (i) => pairs.same[i]) };
      const state: PairwiseState = { problem, pairs, draws: [], round: r };
      const fitted = await fitPairwiseRound(state, surrogate, { design: "random", strategy: "all", batch: 0, seed: deriveSeed(seed, "ensemble", m), holdOut, members: 1, intervals: false });
      probas.push(fitted.proba!);
    }
  } finally {
    surrogate.dispose();
  }
  writeFileSync(memberFile(seed, m), Buffer.concat(probas.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
}

if (!process.argv.includes("--no-run"))
  for (let m = 0; m < members; m++)
    for (let seed = from; seed <= to; seed++) {
      if (existsSync(memberFile(seed, m)) && (m > 0 || existsSync(join(cache, `${seed}.json`)))) continue;
      await (m === 0 ? run(seed) : refit(seed, m));
      console.error(`cached seed ${seed} member ${m}`);
    }

const METRICS: MetricKey[] = ["nmi", "ami", "ari", "fmi"];
const truth = metricsFromTable(contingency(labels, bundle.clusterings[0].assignments));

interface Point {
  readonly estimate: MetricValues;
  readonly interval?: Record<MetricKey, Interval>;
}
/** per variant, per run: AEC by metric, rounds whose interval held the truth, last round held */
const results = new Map<string, { aec: Record<MetricKey, number>; covered: Record<MetricKey, number> | null; last: Record<MetricKey, boolean>; rounds: number; answers: number[]; nmiError: number[] }[]>();
/** per stage s >= 1: corr(f, g) of member 0 and of the ensemble, one entry per run */
const stageFit: { single: number[]; ensemble: number[] }[] = [];
/** --dump FILE: every run's rounds with --members >= 2, for replaying rules offline (the fields of `dump.push` below) */
const dump: unknown[] | null = process.argv.includes("--dump") ? [] : null;
if (dump && members < 2) throw new Error("--dump: give --members 2 or more (its rows hold every fit's estimate and their consensus)");

for (let seed = from; seed <= to; seed++) {
  if (!existsSync(join(cache, `${seed}.json`)) || !Array.from({ length: members }, (_, m) => existsSync(memberFile(seed, m))).every(Boolean)) continue;
  if (versus !== null && !existsSync(memberFile(seed, 0, cacheOf(versus, null)))) continue;
  const c = JSON.parse(readFileSync(join(cache, `${seed}.json`), "utf8")) as CachedRun;
  /** models[r][m]: member m's p(.|x) at round r */
  const models = Array.from({ length: c.rounds }, () => [] as Float32Array[]);
  for (let m = 0; m < members; m++) roundModels(memberFile(seed, m), c.rounds).forEach((p, r) => models[r].push(p));
  const versusModels = versus === null ? null : roundModels(memberFile(seed, 0, cacheOf(versus, null)), c.rounds, defaultK);
  // another surrogate's run beside the app's fits of the same seed (mcl's cache, all PAIRWISE_MEMBERS of them): the mix variants
  const appFiles = Array.from({ length: PAIRWISE_MEMBERS }, (_, m) => memberFile(seed, m, cacheOf("mcl")));
  const appFits = surrogateName !== "mcl" && members > 1 && appFiles.every((f) => existsSync(f)) ? appFiles.map((f) => roundModels(f, c.rounds)) : null;
  const tableEstimate = (proba: Float32Array, estimator: Estimator, outputs = k) =>
    estimateMetrics(pairwiseEstimatorInput(proba, outputs, n, "all", new Int32Array(0)), problem.clusterings, estimator)[clustering];
  const curves = new Map<string, { nLabels: number; point: Point }[]>();
  const add = (name: string, nLabels: number, point: Point) => {
    if (!curves.has(name)) curves.set(name, []);
    curves.get(name)!.push({ nLabels, point });
  };
  let previous: MetricValues | null = null;
  /** the app's estimate of the round before (blend-E-tuned) */
  let previousApp: MetricValues | null = null;
  for (let r = 0; r < c.rounds; r++) {
    const { pairs, draws } = pairsUpTo(c, r);
    const nLabels = pairs.a.length;
    const argmaxes = models[r].map((p) => tableEstimate(p, argmaxEstimator));
    const argmax = argmaxes[0];
    add("argmax", nLabels, { estimate: argmax });
    const versusArgmax = versusModels && tableEstimate(versusModels[r], argmaxEstimator, defaultK);
    if (versusArgmax) add(baselineName, nLabels, { estimate: versusArgmax });
    add("soft", nLabels, { estimate: tableEstimate(models[r][0], softEstimator) });
    add("last-2", nLabels, { estimate: previous ? meanMetrics([argmax, previous]) : argmax });
    previous = argmax;
    const clusterIds = bundle.clusterings[0].assignments;
    const firstFitStages = stagesByRound(pairs, draws, modelsOfDrawingRounds(models.map((ms) => [ms[0]])), k);
    const single = pairCounts(clusterIds, firstFitStages);
    const corrected = (counts: typeof single, base: MetricValues, weight: PairCorrectionWeight) => pairPpiEstimate(counts, base, null, 0.9, weight);
    add("pair-ppi", nLabels, corrected(single, argmax, "full"));
    add("pair-ppi-tuned", nLabels, corrected(single, argmax, "tuned"));
    // two fits per round: the --versus surrogate's argmax, corrected with this surrogate's g
    if (versusArgmax) add(`${baselineName} + this g, tuned`, nLabels, corrected(single, versusArgmax, "tuned"));
    for (let e = 2; e <= members; e++) add(`ensemble-${e}`, nLabels, { estimate: meanMetrics(argmaxes.slice(0, e)) });
    if (members > 1) {
      const consensus = tableEstimate(alignedMean(models[r]), argmaxEstimator);
      add(`consensus-${members}`, nLabels, { estimate: consensus });
      const base = meanMetrics(argmaxes);
      // g: the fits' mean same-probability
      const counts = pairCounts(clusterIds, stagesByRound(pairs, draws, modelsOfDrawingRounds(models), k));
      // the ensemble moved toward the consensus by the share that brings its FMI to `fmi` (blend-E-tuned: the app's round since issue #25's consensus)
      const blendWith = (fmi: number) => movedToward(base, consensus, fmi);
      // the app's round: an estimate with the intervals of the first fit's g around it; the metrics the pair
      // counts do not cover (ACC, AP) get the point as their interval, as pairPpiEstimate(..., null) gives them
      const withAppInterval = (estimate: MetricValues): Point => {
        const points = {} as Record<MetricKey, Interval>;
        for (const m of METRIC_KEYS) points[m] = [estimate[m], estimate[m]];
        const pointReport: IntervalReport = { interval: { [clustering]: points }, pBest: {} as IntervalReport["pBest"], draws: 0, level: 0.9 };
        return { estimate, interval: pairCountIntervals(pointReport, { [clustering]: estimate }, problem.clusterings, firstFitStages).interval[clustering] };
      };
      const fullFmi = corrected(single, base, "full").estimate.fmi;
      const tunedFmi = corrected(single, base, "tuned").estimate.fmi;
      add(`blend-${members}`, nLabels, { estimate: blendWith(fullFmi) });
      const appEstimate = blendWith(tunedFmi);
      add(`blend-${members}-tuned${members === PAIRWISE_MEMBERS ? " (the app)" : ""}`, nLabels, withAppInterval(appEstimate));
      for (const [label, copies] of [["last-2", 1], ["last-2 at 2:1", 2]] as const)
        add(`blend-${members}-tuned ${label}`, nLabels, withAppInterval(previousApp ? meanMetrics([...Array<MetricValues>(copies).fill(appEstimate), previousApp]) : appEstimate));
      previousApp = appEstimate;
      dump?.push({ seed, round: r, answers: nLabels, same: pairs.same.reduce((x, y) => x + y, 0), truth, fits: argmaxes, consensus, app: appEstimate, versus: versusArgmax, fmiTuned: tunedFmi, fmiFull: fullFmi });
      add(`blend-${members}-tuned-informed`, nLabels, { estimate: drawingModelsInformative(firstFitStages) === true ? appEstimate : base });
      if (appFits) {
        const app = appFits.map((fit) => fit[r]);
        const appArgmaxes = app.map((p) => tableEstimate(p, argmaxEstimator));
        const appConsensus = tableEstimate(alignedMean(app), argmaxEstimator);
        const toward = (mean: MetricValues) => withAppInterval(movedToward(mean, appConsensus, corrected(single, mean, "tuned").estimate.fmi));
        add(`the app's ${PAIRWISE_MEMBERS} fits`, nLabels, toward(meanMetrics(appArgmaxes)));
        add(`mix-${members} toward the app's consensus`, nLabels, toward(meanMetrics([...appArgmaxes, ...argmaxes.slice(1)])));
      }
      add(`blend-${members}-tuned-eg`, nLabels, withAppInterval(blendWith(corrected(counts, base, "tuned").estimate.fmi)));
      add(`ensemble-${members}, first fit's g`, nLabels, withAppInterval(base));
      add(`ensemble-${members}-ppi`, nLabels, corrected(counts, base, "full"));
      add(`ensemble-${members}-ppi-tuned`, nLabels, corrected(counts, base, "tuned"));
    }
  }
  for (const [name, curve] of curves) {
    const covered = Object.fromEntries(METRICS.map((m) => [m, 0])) as Record<MetricKey, number>;
    const last = Object.fromEntries(METRICS.map((m) => [m, false])) as Record<MetricKey, boolean>;
    for (const { point } of curve)
      for (const m of METRICS) {
        if (!point.interval) continue;
        const holds = truth[m] >= point.interval[m][0] && truth[m] <= point.interval[m][1];
        if (holds) covered[m]++;
        last[m] = holds;
      }
    const aecs = Object.fromEntries(METRICS.map((m) => [m, aec(curve.map((p) => ({ nLabels: p.nLabels, absErr: Math.abs(p.point.estimate[m] - truth[m]) })), 1000)])) as Record<MetricKey, number>;
    if (!results.has(name)) results.set(name, []);
    results.get(name)!.push({ aec: aecs, covered: curve[0].point.interval ? covered : null, last, rounds: curve.length, answers: curve.map((p) => p.nLabels), nmiError: curve.map((p) => p.point.estimate.nmi - truth.nmi) });
  }
  for (let s = 1; s < c.rounds; s++) {
    const rows = c.round.flatMap((x, i) => (x === s ? [i] : []));
    const f = rows.map((i) => c.same[i]);
    const g = (ms: Float32Array[]) => rows.map((i) => mean(ms.map((p) => sameProbability(p, k, c.a[i], c.b[i]))));
    const fit = (stageFit[s - 1] ??= { single: [], ensemble: [] });
    fit.single.push(correlation(f, g(models[s - 1].slice(0, 1))));
    fit.ensemble.push(correlation(f, g(models[s - 1])));
  }
}

function correlation(x: number[], y: number[]): number {
  const mx = mean(x);
  const my = mean(y);
  let cxy = 0;
  let cxx = 0;
  let cyy = 0;
  for (let i = 0; i < x.length; i++) {
    cxy += (x[i] - mx) * (y[i] - my);
    cxx += (x[i] - mx) ** 2;
    cyy += (y[i] - my) ** 2;
  }
  return cxx > 0 && cyy > 0 ? cxy / Math.sqrt(cxx * cyy) : 0;
}

const cell = (x: number[]) => `${mean(x).toFixed(4)} +- ${se(x).toFixed(4)}`;
const baseline = results.get(baselineName) ?? [];
console.log(`${bundleDir} ${clustering}, surrogate ${surrogateName}, random pairs, stages of ${batch} to ${budget} answers, ${baseline.length} runs (seeds ${from}-${to}, ${members} member(s))`);
console.log(`| variant | metric | AEC per 1,000 | ratio to ${baselineName} | runs better | 90% coverage, runs as unit | last round covered |`);
console.log("|---|---|---|---|---|---|---|");
for (const m of METRICS)
  for (const [name, runs] of results) {
    const values = runs.map((r) => r.aec[m]);
    const better = runs.filter((r, i) => r.aec[m] < baseline[i].aec[m]).length;
    const coverage = runs[0].covered ? mean(runs.map((r) => r.covered![m] / r.rounds)).toFixed(3) : "-";
    const last = runs[0].covered ? `${runs.filter((r) => r.last[m]).length}/${runs.length}` : "-";
    console.log(`| ${name} | ${m} | ${cell(values)} | ${(mean(values) / mean(baseline.map((r) => r.aec[m]))).toFixed(2)}x | ${better}/${runs.length} | ${coverage} | ${last} |`);
  }
// --paired A,B: variant A's AEC minus variant B's, run by run (the same runs, so paired)
if (process.argv.includes("--paired")) {
  const [a, b] = arg("paired", "").split(",");
  const first = results.get(a);
  const second = results.get(b);
  if (!first || !second) throw new Error(`--paired: two of ${[...results.keys()].join("; ")}`);
  for (const m of METRICS) console.log(`${m}: ${a} minus ${b}, AEC per 1,000: ${cell(first.map((r, i) => r.aec[m] - second[i].aec[m]))} (${first.filter((r, i) => r.aec[m] < second[i].aec[m]).length}/${first.length} runs lower)`);
}
if (dump) writeFileSync(arg("dump", ""), JSON.stringify(dump));
// --by-stage A,B,...: each variant's NMI error (estimate minus truth) by stage over the runs: its mean (the bias), s.d. and root mean square
if (process.argv.includes("--by-stage")) {
  console.log("| variant | answers | NMI bias | s.d. | RMS |");
  console.log("|---|---|---|---|---|");
  for (const name of arg("by-stage", "").split(",")) {
    const runs = results.get(name);
    if (!runs) throw new Error(`--by-stage: variants among ${[...results.keys()].join("; ")}`);
    for (let r = 0; r < runs[0].rounds; r++) {
      const errors = runs.map((run) => run.nmiError[r]);
      console.log(`| ${name} | ${runs[0].answers[r]} | ${mean(errors).toFixed(4)} | ${sd(errors).toFixed(4)} | ${Math.sqrt(mean(errors.map((e) => e * e))).toFixed(4)} |`);
    }
  }
}
console.log("| stage (drawn by the models of round) | corr(f, g), member 0 | corr(f, g), ensemble |");
console.log("|---|---|---|");
stageFit.forEach((fit, i) => console.log(`| ${i + 1} (${i}) | ${mean(fit.single).toFixed(3)} | ${mean(fit.ensemble).toFixed(3)} |`));
