/**
 * Prediction-powered pairwise estimates against the argmax ones (issue 25), on random-pairs
 * simulations: labels.npy answers "same class or not?", rounds run runPairwiseRound (the MCL
 * surrogate, no bootstrap intervals), as `simulate --mode pairwise --pair-design random --pair-ppi`
 * does. Each run's answered pairs and every round's p(.|x) are cached under --cache (resumable:
 * a seed already there is not run again); the estimates are computed from the cache.
 *
 *   nice -n 19 node --import tsx bench/pair-ppi.ts --bundle data/digits [--clustering kmeans_k10]
 *        [--seeds 0-99] [--batch 200] [--budget 1000] [--cache /tmp/pair-ppi] [--no-run]
 *
 * --no-run reports the seeds already cached. Prints per metric: AEC per 1,000 answers (mean +-
 * standard error over runs) of argmax and pair-ppi, the paired ratio, and pair-ppi's 90% interval
 * coverage with runs as the unit (mean of each run's share of rounds whose interval holds the
 * truth), over all rounds, and at each run's last round. Then two diagnostics: the ceiling of the NMI correction (argmax plus
 * the exact FMI or ARI gap, truth minus argmax, as if the pair counts were known), argmax plus half
 * the estimated correction (a fixed shrinkage), per round argmax's NMI bias and spread over runs
 * and pair-ppi's mean NMI interval width, and per stage the
 * drawing model's fit to the answers (same answers, correlation of f with g = sum_k p_ik p_jk, the
 * residual variance share 1 - rho^2 that bounds what the control variate removes).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { aec } from "@/lib/cereal/harness/aec";
import { argmaxEstimator, estimateMetrics } from "@/lib/cereal/method/estimators";
import { drawUniformPairs, recordPairDraws, type PairDrawRecord } from "@/lib/cereal/pairwise/pair-designs";
import { pairCounts, pairPpiEstimate, stagesByRound } from "@/lib/cereal/pairwise/pair-count-ppi";
import { defaultNumOutputs, sameProbability } from "@/lib/cereal/pairwise/pair-surrogate";
import { pairwiseEstimatorInput } from "@/lib/cereal/pairwise/pairwise-estimate";
import { addPairAnswers, initialPairwiseState, runPairwiseRound } from "@/lib/cereal/pairwise/pairwise-round";
import { Random } from "@/lib/random/named-streams";
import { loadBundle } from "@/lib/data/bundle";
import { contingency, metricsFromTable, type MetricKey } from "@/lib/metrics";

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
const cache = join(arg("cache", "/tmp/pair-ppi"), `${bundleDir.split("/").filter(Boolean).pop()}-${clustering}-${batch}-${budget}`);
mkdirSync(cache, { recursive: true });

const bundle = await loadBundle(bundleDir, { clusterings: [clustering] });
if (!bundle.labels) throw new Error(`${bundleDir} has no labels.npy`);
const labels = bundle.labels;
const problem = { embeddings: { data: bundle.embeddings, n: bundle.n, d: bundle.d }, numClasses: bundle.numClasses, clusterings: bundle.clusterings };
const n = bundle.n;
const k = defaultNumOutputs(bundle.numClasses);

async function run(seed: number): Promise<void> {
  const { mclSurrogateFactory } = await import("@/models/mcl-surrogate");
  const oracle = (draws: readonly PairDrawRecord[]) => Uint8Array.from(draws, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0));
  const seedDraws = recordPairDraws(drawUniformPairs(n, Math.min(batch, budget), Random.from(seed, "seed-batch")), "uniform", 0, 0);
  let state = initialPairwiseState(problem, seedDraws, oracle(seedDraws));
  const surrogate = await mclSurrogateFactory({ model: "mlp" })(problem.embeddings, k);
  const probas: Float32Array[] = [];
  try {
    for (;;) {
      const result = await runPairwiseRound(state, surrogate, { design: "random", strategy: "all", batch: Math.max(0, Math.min(batch, budget - state.pairs.a.length)), seed, intervals: false });
      probas.push(result.proba!);
      if (result.next.length === 0) break;
      state = addPairAnswers(state, result.next, oracle(result.next));
    }
  } finally {
    surrogate.dispose();
  }
  writeFileSync(join(cache, `${seed}.bin`), Buffer.concat(probas.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
  const cached: CachedRun = { seed, n, k, rounds: probas.length, a: [...state.pairs.a], b: [...state.pairs.b], same: [...state.pairs.same], round: state.draws.map((d) => d.round), q: state.draws.map((d) => d.q) };
  writeFileSync(join(cache, `${seed}.json`), JSON.stringify(cached));
}

const METRICS: MetricKey[] = ["nmi", "ami", "ari", "fmi"];
const truth = metricsFromTable(contingency(labels, bundle.clusterings[0].assignments));
const runs: { argmax: Record<MetricKey, number>; ppi: Record<MetricKey, number>; ceiling: { fmi: number; ari: number }; half: number; covered: Record<MetricKey, number>; lastCovered: Record<MetricKey, boolean>; rounds: number }[] = [];
/** per round: argmax NMI minus the truth, and pair-ppi's NMI interval width, one entry per run */
const byRound: { error: number[]; width: number[] }[] = [];
/** per stage s >= 1: same answers, corr(f, g), 1 - corr^2, one entry per run */
const stageFit: { same: number[]; corr: number[]; residual: number[] }[] = [];
for (let seed = from; seed <= to; seed++) {
  if (!existsSync(join(cache, `${seed}.json`))) {
    if (process.argv.includes("--no-run")) continue;
    await run(seed);
  }
  const c = JSON.parse(readFileSync(join(cache, `${seed}.json`), "utf8")) as CachedRun;
  const raw = readFileSync(join(cache, `${seed}.bin`));
  const all = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  const probaByRound = Array.from({ length: c.rounds }, (_, r) => all.subarray(r * n * k, (r + 1) * n * k));
  const ceilings = { fmi: [] as { nLabels: number; absErr: number }[], ari: [] as { nLabels: number; absErr: number }[] };
  const half: { nLabels: number; absErr: number }[] = [];
  const curves = { argmax: [] as { nLabels: number; absErr: Record<MetricKey, number> }[], ppi: [] as { nLabels: number; absErr: Record<MetricKey, number> }[] };
  const covered = Object.fromEntries(METRICS.map((m) => [m, 0])) as Record<MetricKey, number>;
  const lastCovered = Object.fromEntries(METRICS.map((m) => [m, false])) as Record<MetricKey, boolean>;
  for (let r = 0; r < c.rounds; r++) {
    const upTo = c.round.flatMap((x, i) => (x <= r ? [i] : []));
    const pairs = { a: Int32Array.from(upTo, (i) => c.a[i]), b: Int32Array.from(upTo, (i) => c.b[i]), same: Uint8Array.from(upTo, (i) => c.same[i]) };
    const draws = upTo.map((i) => ({ round: c.round[i], q: c.q[i] }));
    const input = pairwiseEstimatorInput(probaByRound[r], k, n, "all", new Int32Array(0));
    const argmax = estimateMetrics(input, problem.clusterings, argmaxEstimator)[clustering];
    const ppi = pairPpiEstimate(pairCounts(bundle.clusterings[0].assignments, stagesByRound(pairs, draws, probaByRound, k)), argmax, null, 0.9);
    const absErr = (v: Record<MetricKey, number>) => Object.fromEntries(METRICS.map((m) => [m, Math.abs(v[m] - truth[m])])) as Record<MetricKey, number>;
    curves.argmax.push({ nLabels: pairs.a.length, absErr: absErr(argmax) });
    const at = (byRound[r] ??= { error: [], width: [] });
    at.error.push(argmax.nmi - truth.nmi);
    at.width.push(ppi.interval.nmi[1] - ppi.interval.nmi[0]);
    half.push({ nLabels: pairs.a.length, absErr: Math.abs((argmax.nmi + ppi.estimate.nmi) / 2 - truth.nmi) });
    for (const gap of ["fmi", "ari"] as const) ceilings[gap].push({ nLabels: pairs.a.length, absErr: Math.abs(argmax.nmi + truth[gap] - argmax[gap] - truth.nmi) });
    curves.ppi.push({ nLabels: pairs.a.length, absErr: absErr(ppi.estimate) });
    for (const m of METRICS) {
      const holds = truth[m] >= ppi.interval[m][0] && truth[m] <= ppi.interval[m][1];
      if (holds) covered[m]++;
      lastCovered[m] = holds;
    }
  }
  const aecOf = (curve: typeof curves.argmax) => Object.fromEntries(METRICS.map((m) => [m, aec(curve.map((p) => ({ nLabels: p.nLabels, absErr: p.absErr[m] })), 1000)])) as Record<MetricKey, number>;
  runs.push({ argmax: aecOf(curves.argmax), ppi: aecOf(curves.ppi), ceiling: { fmi: aec(ceilings.fmi, 1000), ari: aec(ceilings.ari, 1000) }, half: aec(half, 1000), covered, lastCovered, rounds: c.rounds });
  for (let s = 1; s < c.rounds; s++) {
    const rows = c.round.flatMap((x, i) => (x === s ? [i] : []));
    const f = rows.map((i) => c.same[i]);
    const g = rows.map((i) => sameProbability(probaByRound[s - 1], k, c.a[i], c.b[i]));
    const corr = correlation(f, g);
    const fit = (stageFit[s - 1] ??= { same: [], corr: [], residual: [] });
    fit.same.push(f.reduce((x, y) => x + y, 0));
    fit.corr.push(corr);
    fit.residual.push(1 - corr * corr);
  }
}

function correlation(x: number[], y: number[]): number {
  const mx = x.reduce((s, v) => s + v, 0) / x.length;
  const my = y.reduce((s, v) => s + v, 0) / y.length;
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

const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
const se = (x: number[]): number => Math.sqrt(x.reduce((s, v) => s + (v - mean(x)) ** 2, 0) / (x.length - 1) / x.length);
const cell = (x: number[]) => `${mean(x).toFixed(4)} +- ${se(x).toFixed(4)}`;
console.log(`${bundleDir} ${clustering}, random pairs, stages of ${batch} to ${budget} answers, ${runs.length} runs (seeds ${from}-${to})`);
console.log("| metric | argmax AEC per 1,000 | pair-ppi AEC per 1,000 | ratio | runs pair-ppi better | 90% coverage, runs as unit | rounds covered | last round covered |");
console.log("|---|---|---|---|---|---|---|---|");
for (const m of METRICS) {
  const a = runs.map((r) => r.argmax[m]);
  const p = runs.map((r) => r.ppi[m]);
  const better = runs.filter((r) => r.ppi[m] < r.argmax[m]).length;
  const share = runs.map((r) => r.covered[m] / r.rounds);
  const rounds = runs.reduce((s, r) => s + r.rounds, 0);
  console.log(`| ${m} | ${cell(a)} | ${cell(p)} | ${(mean(p) / mean(a)).toFixed(2)}x | ${better}/${runs.length} | ${mean(share).toFixed(3)} | ${runs.reduce((s, r) => s + r.covered[m], 0)}/${rounds} | ${runs.filter((r) => r.lastCovered[m]).length}/${runs.length} |`);
}
const argmaxNmi = mean(runs.map((r) => r.argmax.nmi));
for (const gap of ["fmi", "ari"] as const) {
  const ceiling = runs.map((r) => r.ceiling[gap]);
  console.log(`ceiling: argmax NMI + the exact ${gap.toUpperCase()} gap: AEC ${cell(ceiling)} (${(mean(ceiling) / argmaxNmi).toFixed(2)}x argmax)`);
}
const halfway = runs.map((r) => r.half);
console.log(`argmax NMI + half the FMI correction (a fixed shrinkage): AEC ${cell(halfway)} (${(mean(halfway) / argmaxNmi).toFixed(2)}x argmax)`);
const sd = (x: number[]) => Math.sqrt(x.reduce((s, v) => s + (v - mean(x)) ** 2, 0) / (x.length - 1));
console.log("| round | argmax NMI bias | argmax NMI sd | pair-ppi NMI interval width |");
console.log("|---|---|---|---|");
byRound.forEach((at, r) => console.log(`| ${r} | ${mean(at.error).toFixed(3)} | ${sd(at.error).toFixed(3)} | ${mean(at.width).toFixed(3)} |`));
console.log("| stage (drawn by the model of round) | same answers | corr(f, g) | 1 - rho^2 |");
console.log("|---|---|---|---|");
stageFit.forEach((fit, i) => console.log(`| ${i + 1} (${i}) | ${mean(fit.same).toFixed(1)} | ${mean(fit.corr).toFixed(3)} | ${mean(fit.residual).toFixed(3)} |`));
