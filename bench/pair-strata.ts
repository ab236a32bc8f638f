/**
 * Stratified pair stages (issue 25): each stage of `--batch` answers is a uniform draw of (1 - S)
 * of them over the pairs not taken, then S of them uniformly within the clustering's clusters
 * (share S = --share), so the pair counts see more of the pairs a = #{c_i = c_j and y_i = y_j}
 * counts. Given the u uniform pairs that fell within a cluster, the stage's within pairs are a
 * uniform sample of the within pairs not taken before it (q = (u + S m) / their count) and its other
 * pairs one of the pairs across (q = (m - S m - u) / theirs): PairStage.stratum, the variance summed
 * per stratum. `--train out` fits the app's PAIRWISE_MEMBERS fits on the uniform pairs only, `in` on
 * every answered pair. Every round reports the app's estimate (the fits' mean moved toward their
 * consensus by the pair counts' tuned FMI, fit-consensus.ts) and its parts; the ratios are to the
 * issue's base, the argmax estimate of `mcl-paper` on random pairs with the same seeds, read from
 * bench/pair-ppi.ts's cache (run that first with `--surrogate mcl-paper`).
 *
 *   nice -n 19 node --import tsx bench/pair-strata.ts --bundle data/demo [--seeds 200-249] [--share 0.3]
 *        [--train out|in] [--batch 200] [--budget 1000] [--cache /tmp/pair-strata] [--pair-ppi-cache /tmp/pair-ppi]
 *
 * Runs are cached per seed (resumable). Prints per variant the NMI AEC per 1,000 answers (mean +-
 * standard error), the paired ratio to the base, the runs better than it, and the NMI error's mean
 * (bias) / s.d. by stage; then the pair counts' 90% FMI interval width by stage. Variants:
 *   ensemble   the mean of the fits' argmax estimates      consensus   the argmax estimate of their consensus
 *   app        ensemble moved toward consensus (towardConsensus: the app's round)
 *   tuned / full   ensemble + the pair counts' correction (pairPpiEstimate, weight "tuned" / "full")
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { aec } from "@/lib/cereal/harness/aec";
import { probaFromBytes } from "@/lib/cereal/harness/estimator-inputs";
import { argmaxEstimator, estimateMetrics } from "@/lib/cereal/method/estimators";
import { drawUniformPairs, pairKey } from "@/lib/cereal/pairwise/pair-designs";
import { towardConsensus } from "@/lib/cereal/pairwise/fit-consensus";
import { pairCounts, pairPpiEstimate, type PairStage } from "@/lib/cereal/pairwise/pair-count-ppi";
import { defaultNumOutputs } from "@/lib/cereal/pairwise/pair-surrogate";
import { pairwiseEstimatorInput } from "@/lib/cereal/pairwise/pairwise-estimate";
import { fitPairwiseRound, PAIRWISE_MEMBERS, type PairwiseState } from "@/lib/cereal/pairwise/pairwise-round";
import { Random } from "@/lib/random/named-streams";
import { loadBundle } from "@/lib/data/bundle";
import { contingency, metricsFromTable } from "@/lib/metrics";
import { mean, meanMetrics, sd, se } from "./sample-stats";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const bundleDir = arg("bundle", "data/demo");
const bundleName = bundleDir.split("/").filter(Boolean).pop()!;
const clustering = arg("clustering", "kmeans_k10");
const [from, to] = arg("seeds", "200-249").split("-").map(Number);
const share = Number(arg("share", "0.3"));
const train = arg("train", "out");
const batch = Number(arg("batch", "200"));
const budget = Number(arg("budget", "1000"));
if (!(share >= 0 && share < 1)) throw new Error("--share: the within share of a stage, in [0, 1)");
if (train !== "out" && train !== "in") throw new Error("--train: out (the fits see the uniform pairs) or in (every pair)");
const cache = join(arg("cache", "/tmp/pair-strata"), `${bundleName}-${clustering}-${batch}-${budget}-s${share}-${train}`);
/** bench/pair-ppi.ts's cache of mcl-paper on random pairs: the base */
const baseCache = join(arg("pair-ppi-cache", "/tmp/pair-ppi"), `${bundleName}-${clustering}-${batch}-${budget}-mcl-paper`);
mkdirSync(cache, { recursive: true });

const bundle = await loadBundle(bundleDir, { clusterings: [clustering] });
if (!bundle.labels) throw new Error(`${bundleDir} has no labels.npy`);
const labels = bundle.labels;
const ids = bundle.clusterings[0].assignments;
const problem = { embeddings: { data: bundle.embeddings, n: bundle.n, d: bundle.d }, numClasses: bundle.numClasses, clusterings: bundle.clusterings };
const n = bundle.n;
const k = defaultNumOutputs(bundle.numClasses);
const truth = metricsFromTable(contingency(labels, ids));
const members = new Map<number, number[]>();
ids.forEach((c, i) => (members.get(c) ?? members.set(c, []).get(c)!).push(i));
const clusters = [...members.values()];
/** the pairs within clusters 0..c, running total over the clusters (the last: every within pair) */
const cumulative: number[] = [];
for (const m of clusters) cumulative.push((cumulative.at(-1) ?? 0) + (m.length * (m.length - 1)) / 2);
const pairsWithin = cumulative.at(-1) ?? 0;
const together = (i: number, j: number) => ids[i] === ids[j];

/** `count` new pairs within the clusters, uniformly over those not in `taken` (rejection sampling) */
function drawWithin(count: number, random: Random, taken: Set<string>): [number, number][] {
  const out: [number, number][] = [];
  while (out.length < count) {
    const x = random.next() * pairsWithin;
    const cluster = clusters[cumulative.findIndex((v) => x < v)];
    const [i, j] = [cluster[random.int(cluster.length)], cluster[random.int(cluster.length)]];
    if (i === j || taken.has(pairKey(i, j))) continue;
    taken.add(pairKey(i, j));
    out.push([Math.min(i, j), Math.max(i, j)]);
  }
  return out;
}

interface Stage extends Omit<PairStage, "models"> {
  /** 1: the pair trains the fits */
  readonly trains: Uint8Array;
}

/** stage `round` of `count` answers: the uniform share (drawn from pair-ppi's streams, so share 0 draws its run's pairs), then the within one */
function drawStage(count: number, round: number, seed: number, before: readonly Stage[]): Stage {
  const taken = new Set<string>();
  let withinTaken = 0;
  for (const s of before)
    for (let t = 0; t < s.a.length; t++) {
      taken.add(pairKey(s.a[t], s.b[t]));
      if (together(s.a[t], s.b[t])) withinTaken++;
    }
  const pairsLeft = (n * (n - 1)) / 2 - taken.size;
  const withinLeft = pairsWithin - withinTaken;
  const ownWithin = Math.round(count * share);
  const uniform = drawUniformPairs(n, count - ownWithin, round === 0 ? Random.from(seed, "seed-batch") : Random.from(seed, "pairs", round), taken).map((d): [number, number] => [d.row, d.rowB]);
  for (const [i, j] of uniform) taken.add(pairKey(i, j));
  const pairs = [...uniform, ...drawWithin(ownWithin, Random.from(seed, "within", round), taken)];
  const stratum = Uint8Array.from(pairs, ([i, j]) => (together(i, j) ? 1 : 0));
  const u = stratum.reduce((x, y) => x + y, 0) - ownWithin;
  const [qWithin, qAcross] = [(u + ownWithin) / withinLeft, (uniform.length - u) / (pairsLeft - withinLeft)];
  return {
    uniform: true,
    a: Int32Array.from(pairs, (p) => p[0]),
    b: Int32Array.from(pairs, (p) => p[1]),
    same: Uint8Array.from(pairs, ([i, j]) => (labels[i] === labels[j] ? 1 : 0)),
    q: Float64Array.from(stratum, (h) => (h ? qWithin : qAcross)),
    stratum,
    trains: Uint8Array.from(pairs, (_, t) => (train === "in" || t < uniform.length ? 1 : 0)),
    k,
  };
}

const argmaxOf = (proba: Float32Array) => estimateMetrics(pairwiseEstimatorInput(proba, k, n, "all", new Int32Array(0)), problem.clusterings, argmaxEstimator)[clustering];

const VARIANTS = ["ensemble", "consensus", "app", "tuned", "full"] as const;
interface RoundRow {
  readonly answers: number;
  readonly nmi: Record<(typeof VARIANTS)[number], number>;
  readonly fmiWidth: number;
}

async function run(seed: number): Promise<RoundRow[]> {
  const { mclSurrogateFactory } = await import("@/models/mcl-surrogate");
  const surrogate = await mclSurrogateFactory({ model: "mlp" })(problem.embeddings, k);
  const stages: Stage[] = [drawStage(Math.min(batch, budget), 0, seed, [])];
  /** the first fit's p(.|x) of every round: the drawing model of the stage after it */
  const drawing: Float32Array[] = [];
  const rows: RoundRow[] = [];
  try {
    for (let round = 0; ; round++) {
      const trainPairs = stages.flatMap((s) => Array.from(s.a.keys()).filter((t) => s.trains[t] === 1).map((t) => [s.a[t], s.b[t], s.same[t]]));
      const state: PairwiseState = {
        problem,
        pairs: { a: Int32Array.from(trainPairs, (p) => p[0]), b: Int32Array.from(trainPairs, (p) => p[1]), same: Uint8Array.from(trainPairs, (p) => p[2]) },
        draws: [],
        round,
      };
      const fitted = await fitPairwiseRound(state, surrogate, { design: "random", strategy: "all", batch: 0, seed, holdOut: 0, members: PAIRWISE_MEMBERS, intervals: false });
      drawing.push(fitted.proba!);
      const ensemble = meanMetrics([argmaxOf(fitted.proba!), ...fitted.memberEstimates.map((e) => e[clustering])]);
      const consensus = fitted.consensusEstimate![clustering];
      const pairStages: PairStage[] = stages.map((s, i) => ({ ...s, models: i === 0 ? [] : [drawing[i - 1]] }));
      const counts = pairCounts(ids, pairStages);
      const full = pairPpiEstimate(counts, ensemble, null, 0.9, "full");
      const nmi = {
        ensemble: ensemble.nmi,
        consensus: consensus.nmi,
        app: towardConsensus(ensemble, consensus, ids, pairStages).nmi,
        tuned: pairPpiEstimate(counts, ensemble, null, 0.9, "tuned").estimate.nmi,
        full: full.estimate.nmi,
      };
      const answers = stages.reduce((t, s) => t + s.a.length, 0);
      rows.push({ answers, nmi, fmiWidth: full.interval.fmi[1] - full.interval.fmi[0] });
      if (answers >= budget) return rows;
      stages.push(drawStage(Math.min(batch, budget - answers), round + 1, seed, stages));
    }
  } finally {
    surrogate.dispose();
  }
}

/** the base's NMI at every round of seed `seed`: mcl-paper's cached p(.|x) on random pairs */
function baseNmi(seed: number, rounds: number): number[] {
  const all = probaFromBytes(readFileSync(join(baseCache, `${seed}.bin`)));
  return Array.from({ length: rounds }, (_, r) => argmaxOf(all.subarray(r * n * k, (r + 1) * n * k)).nmi);
}

const runs: { rows: RoundRow[]; base: number[] }[] = [];
for (let seed = from; seed <= to; seed++) {
  const file = join(cache, `${seed}.json`);
  if (!existsSync(file)) {
    writeFileSync(file, JSON.stringify(await run(seed)));
    console.error(`cached seed ${seed}`);
  }
  if (!existsSync(join(baseCache, `${seed}.bin`))) continue;
  const rows = JSON.parse(readFileSync(file, "utf8")) as RoundRow[];
  runs.push({ rows, base: baseNmi(seed, rows.length) });
}
if (runs.length === 0) throw new Error(`no seed of ${from}-${to} has the base's run in ${baseCache}: run bench/pair-ppi.ts --surrogate mcl-paper first`);

const curveAec = (answers: number[], errors: number[]) => aec(answers.map((x, r) => ({ nLabels: x, absErr: Math.abs(errors[r]) })), 1000);
const byVariant = new Map<string, { aec: number; errors: number[] }[]>();
for (const { rows, base } of runs) {
  const answers = rows.map((r) => r.answers);
  const put = (name: string, nmi: number[]) => {
    const errors = nmi.map((v) => v - truth.nmi);
    (byVariant.get(name) ?? byVariant.set(name, []).get(name)!).push({ aec: curveAec(answers, errors), errors });
  };
  put("base (mcl-paper argmax, random pairs)", base);
  for (const v of VARIANTS) put(v, rows.map((r) => r.nmi[v]));
}
const baseline = byVariant.values().next().value!;
console.log(`${bundleDir} ${clustering}, within share ${share}, train ${train}, stages of ${batch} to ${budget} answers, ${runs.length} runs (seeds ${from}-${to})`);
console.log(`| variant | NMI AEC per 1,000 | ratio to the base | runs better | NMI bias / s.d. at ${runs[0].rows.map((r) => r.answers).join(" / ")} answers |`);
console.log("|---|---|---|---|---|");
for (const [name, values] of byVariant) {
  const aecs = values.map((v) => v.aec);
  const stages = runs[0].rows.map((_, r) => `${mean(values.map((v) => v.errors[r])).toFixed(3)} / ${sd(values.map((v) => v.errors[r])).toFixed(3)}`).join(", ");
  const better = values.filter((v, i) => v.aec < baseline[i].aec).length;
  console.log(`| ${name} | ${mean(aecs).toFixed(4)} +- ${se(aecs).toFixed(4)} | ${(mean(aecs) / mean(baseline.map((b) => b.aec))).toFixed(2)}x | ${better}/${values.length} | ${stages} |`);
}
console.log(`pair counts' 90% FMI interval width by stage: ${runs[0].rows.map((_, r) => mean(runs.map((x) => x.rows[r].fmiWidth)).toFixed(3)).join(" / ")}`);
