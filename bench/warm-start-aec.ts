/**
 * Warm start against today's cold rounds (issue #24 item 3), paired by seed; not run in CI.
 *   node --import tsx bench/warm-start-aec.ts [--bundles data/digits,data/demo] [--clustering kmeans_k10,gmm_k10]
 *     [--seeds 10] [--first-seed 0] [--budget 300] [--batch 50] [--warm-steps 256,128] [--arms warm,cold] [--dir var/warm-start] [--report]
 * Per bundle and seed it runs `cereal simulate --recommended` (1,024 cold FixMatch steps every
 * round) and the same with --warm-steps S (round 0 cold, every later round trains S steps on from
 * the previous round's weights), one child process at a time, each result written to DIR
 * atomically, so a killed run resumes where it stopped (seed by seed, so a partial run stays
 * paired). Then it prints per bundle and S the mean paired AEC difference (warm - cold, x in
 * thousands of labels) with its standard error, the seeds where warm was worse, and the mean fit
 * seconds of the rounds after the first. --report prints from the files without running; --arms
 * warm runs only the warm arms (the cold runs of `simulate --recommended` may come from elsewhere:
 * any run of the same command line, e.g. with --compare, has the same summary).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { simulateOnce } from "./simulate-once";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    bundles: { type: "string", default: "data/digits,data/demo" },
    clustering: { type: "string", default: "kmeans_k10,gmm_k10" },
    seeds: { type: "string", default: "10" },
    "first-seed": { type: "string", default: "0" },
    arms: { type: "string", default: "warm,cold" },
    budget: { type: "string", default: "300" },
    batch: { type: "string", default: "50" },
    "warm-steps": { type: "string", default: "256,128" },
    dir: { type: "string", default: path.join("var", "warm-start") },
    report: { type: "boolean", default: false },
  },
});
const bundles = values.bundles.split(",");
const seeds = Number(values.seeds);
const warmSteps = values["warm-steps"].split(",").map(Number);
const firstSeed = Number(values["first-seed"]);
const armKinds = values.arms.split(",");
// warm arms first: they are the cheaper ones
const arms = [...(armKinds.includes("warm") ? warmSteps.map((s) => `warm${s}`) : []), ...(armKinds.includes("cold") ? ["cold"] : [])];
const METRICS = ["nmi", "ami", "ari"] as const;
fs.mkdirSync(values.dir, { recursive: true });

const fileOf = (bundle: string, seed: number, arm: string) =>
  path.join(values.dir, `${path.basename(bundle)}-b${values.budget}-n${values.batch}-s${seed}-${arm}.json`);

function run(bundle: string, seed: number, arm: string) {
  const args = ["--bundle", bundle, "--clustering", values.clustering, "--recommended"];
  args.push("--seed", String(seed), "--budget", values.budget, "--batch", values.batch, "--quiet");
  if (arm !== "cold") args.push("--warm-steps", arm.slice("warm".length));
  simulateOnce(fileOf(bundle, seed, arm), args);
}

if (!values.report) for (let seed = firstSeed; seed < seeds; seed++) for (const bundle of bundles) for (const arm of arms) run(bundle, seed, arm);

interface Result {
  summary: { aecPer1000Labels: Record<string, number> };
  rounds: { trainSeconds: number | null }[];
}
const read = (bundle: string, seed: number, arm: string): Result | null => {
  const file = fileOf(bundle, seed, arm);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Result) : null;
};
const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const standardError = (xs: readonly number[]) => Math.sqrt(xs.reduce((a, b) => a + (b - meanOf(xs)) ** 2, 0) / (xs.length - 1) / xs.length);
/** mean fit seconds of the rounds after the first (round 0 is cold in every arm) */
const laterFitSeconds = (r: Result) => meanOf(r.rounds.slice(1).flatMap((x) => (x.trainSeconds === null ? [] : [x.trainSeconds])));

console.log(`budget ${values.budget}, batch ${values.batch}, ${values.clustering}; AEC x in thousands of labels; diff = warm - cold, paired by seed`);
console.log(`| bundle | warm steps | seeds | ${METRICS.map((m) => `AEC ${m} cold | diff ${m} ± SE | warm worse`).join(" | ")} | fit s after round 0, cold -> warm | within 2 SE |`);
console.log(`|---|---|---|${METRICS.map(() => "---|---|---|").join("")}---|---|`);
for (const bundle of bundles)
  for (const s of warmSteps) {
    const pairs: [Result, Result][] = [];
    for (let seed = 0; seed < seeds; seed++) {
      const cold = read(bundle, seed, "cold");
      const warm = read(bundle, seed, `warm${s}`);
      if (cold && warm) pairs.push([cold, warm]);
    }
    if (pairs.length < 2) continue;
    let holds = true;
    const cells = METRICS.map((m) => {
      const diffs = pairs.map(([c, w]) => w.summary.aecPer1000Labels[m] - c.summary.aecPer1000Labels[m]);
      const d = meanOf(diffs);
      const se = standardError(diffs);
      if (d > 2 * se) holds = false;
      const cold = meanOf(pairs.map(([c]) => c.summary.aecPer1000Labels[m]));
      return `${cold.toFixed(4)} | ${d >= 0 ? "+" : ""}${d.toFixed(4)} ± ${se.toFixed(4)} | ${diffs.filter((x) => x > 0).length}/${diffs.length}`;
    });
    // runs made with --no-timings (NaN here) are left out of the fit seconds
    const seconds = (rs: Result[]) => meanOf(rs.map(laterFitSeconds).filter((x) => Number.isFinite(x))).toFixed(1);
    const fit = `${seconds(pairs.map(([c]) => c))} -> ${seconds(pairs.map(([, w]) => w))}`;
    console.log(`| ${path.basename(bundle)} | ${s} | ${pairs.length} | ${cells.join(" | ")} | ${fit} | ${holds ? "yes" : "no"} |`);
  }
console.log("within 2 SE: for every metric the mean difference is at most 2 standard errors above 0 (warm not measurably worse).");
