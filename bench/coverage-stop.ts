/**
 * The recommended configuration's intervals and stop rule per run (issue #23 items 3 and 4), with
 * Random on the same seeds; not run in CI.
 *   node --import tsx bench/coverage-stop.ts [--bundles digits,demo,weak-c5,...] [--seeds 20] [--first-seed 0]
 *     [--budget 1000] [--batch 50] [--shard I/K] [--dir var/coverage-stop] [--compare soft,ppi] [--residual-when-calibrated GAP]
 *     [--save-inputs] [--report] [--as E]
 * Per seed and bundle it runs `cereal simulate --recommended` and Random (uniform draws, the labels
 * estimator; the kNN fake, which that estimator never reads; no intervals), one child process at a time, each
 * result written to DIR atomically, so a killed run resumes where it stopped. --shard I/K runs
 * every K-th (seed, bundle) pair from the I-th (two processes: 0/2 and 1/2). The weak bundles are
 * bench/weak-set.ts's (`node --import tsx bench/weak-set.ts` first). Then (or with --report alone)
 * it prints from the files: the coverage table (each run's 90% NMI interval at the round with B
 * labels, runs as the unit, Wilson 95% bounds), the stop-rule table (each run judged at the first
 * round the rule fires; the rule replayed by today's stop-rule.ts over each run's recorded intervals, harness/run-tables.ts
 * replayStopRule) with the check of the "labels still needed" projection, and the AEC(NMI)
 * ratios to Random paired by seed (harness/run-tables.ts). --compare E,E records those estimators beside the
 * recommended one (each on its own random stream, so the run is otherwise the same), for bench/guard-replay.ts;
 * --residual-when-calibrated GAP passes the switch (simulate's flag of that name) to the recommended runs;
 * --save-inputs keeps each recommended run's round inputs beside it (RUN.json.inputs/, for bench/estimator-replay.ts).
 * --as E prints the coverage and stop-rule tables of such a recorded estimator instead, on the same runs (its intervals,
 * the stop rule replayed over them: harness/run-tables.ts runAsEstimator); its ratios to Random are the runs' own.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { SimulationResult } from "@/lib/cereal/harness/simulate";
import { coverageTable, replayStopRule, runAsEstimator, stopRuleTable, versusRandomTable } from "@/lib/cereal/harness/run-tables";
import { simulateOnce } from "./simulate-once";

/** the bundles of issue #23's "Done when" (digits, the demo and the fixed weak set, bench/weak-set.ts): path and clusterings */
const BUNDLES: Record<string, { bundle: string; clustering: string }> = {
  digits: { bundle: "data/digits", clustering: "kmeans_k10,gmm_k10" },
  demo: { bundle: "data/demo", clustering: "kmeans_k10,gmm_k10" },
  "weak-c5": { bundle: "bench/out/weak/weak-c5", clustering: "kmeans_k5" },
  "weak-c40": { bundle: "bench/out/weak/weak-c40", clustering: "kmeans_k20" },
  "weak-imbalanced": { bundle: "bench/out/weak/weak-imbalanced", clustering: "kmeans_k10" },
  "weak-text": { bundle: "bench/out/weak/weak-text", clustering: "kmeans_k10" },
  "weak-aniso": { bundle: "bench/out/weak/weak-aniso", clustering: "kmeans_k8" },
  "weak-warp": { bundle: "bench/out/weak/weak-warp", clustering: "kmeans_k10" },
  "weak-modes": { bundle: "bench/out/weak/weak-modes", clustering: "kmeans_k8" },
  "weak-tails": { bundle: "bench/out/weak/weak-tails", clustering: "kmeans_k8" },
};
const ARMS: Record<string, readonly string[]> = {
  // (no intervals: the ratios read Random's point estimates only, and its intervals cost most of its run)
  random: ["--acquisition", "random", "--design", "uniform", "--estimator", "labels", "--surrogate", "fake", "--no-intervals"],
  recommended: ["--recommended"],
};

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    bundles: { type: "string", default: Object.keys(BUNDLES).join(",") },
    seeds: { type: "string", default: "20" },
    "first-seed": { type: "string", default: "0" },
    budget: { type: "string", default: "1000" },
    batch: { type: "string", default: "50" },
    shard: { type: "string", default: "0/1" },
    dir: { type: "string", default: path.join("var", "coverage-stop") },
    report: { type: "boolean", default: false },
    compare: { type: "string" },
    "residual-when-calibrated": { type: "string" },
    "save-inputs": { type: "boolean", default: false },
    as: { type: "string" },
  },
});
const names = values.bundles.split(",");
for (const name of names) if (!BUNDLES[name]) throw new Error(`unknown bundle ${name}: one of ${Object.keys(BUNDLES).join(", ")}`);
const [shard, shards] = values.shard.split("/").map(Number);
fs.mkdirSync(values.dir, { recursive: true });
const fileOf = (name: string, seed: number, arm: string) => path.join(values.dir, `${name}-b${values.budget}-n${values.batch}-s${seed}-${arm}.json`);

if (!values.report) {
  const firstSeed = Number(values["first-seed"]);
  let job = 0;
  for (let seed = firstSeed; seed < firstSeed + Number(values.seeds); seed++)
    for (const name of names) {
      if (job++ % shards !== shard) continue;
      for (const [arm, armArgs] of Object.entries(ARMS)) {
        const { bundle, clustering } = BUNDLES[name];
        const compare = arm === "recommended" && values.compare ? ["--compare", values.compare] : [];
        const gap = values["residual-when-calibrated"];
        const residual = arm === "recommended" && gap ? ["--residual-when-calibrated", gap] : [];
        const inputs = arm === "recommended" && values["save-inputs"] ? ["--save-inputs"] : [];
        simulateOnce(fileOf(name, seed, arm), ["--bundle", bundle, "--clustering", clustering, ...armArgs, ...compare, ...residual, ...inputs, "--seed", String(seed), "--budget", values.budget, "--batch", values.batch, "--quiet"]);
      }
    }
}

/** every finished run in DIR of the chosen bundles, by bundle name and arm */
const runs = (arm: string) => {
  const out = new Map<string, SimulationResult[]>();
  for (const name of names) {
    const pattern = new RegExp(`^${name}-b${values.budget}-n${values.batch}-s\\d+-${arm}\\.json$`);
    const files = fs.readdirSync(values.dir).filter((f) => pattern.test(f));
    out.set(name, files.map((f) => JSON.parse(fs.readFileSync(path.join(values.dir, f), "utf8")) as SimulationResult));
  }
  return out;
};
const recommended = runs("recommended");
const as = values.as;
// the stop rule read anew from each run's intervals, so runs recorded before a change to stop-rule.ts are judged by today's rule
const reported = new Map([...recommended].map(([name, list]) => [name, list.map((run) => (as ? runAsEstimator(run, as) : replayStopRule(run)))]));
const budget = Number(values.budget);
console.log(coverageTable(reported, [200, 500, budget]));
console.log();
console.log(stopRuleTable(reported, budget));
console.log();
console.log(versusRandomTable(recommended, runs("random"), budget));
