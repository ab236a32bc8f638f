/**
 * Paired comparison with Random (issue #23): `cereal simulate --out` runs of a configuration
 * against Random's runs (uniform draws, the labels estimator: told apart by their config) on the
 * same bundles and seeds. Per
 * bundle and estimator recorded in the configuration's runs: AEC(NMI) per 1000 labels over the
 * rounds up to the smaller of the two runs' budgets, the ratio of the mean AECs to Random's, the
 * per-seed ratios' mean ± standard error, how many seeds beat Random, the paired difference to the estimator the
 * runs report (their configuration's, e.g. `guarded` for `--recommended`), and the 90% intervals after
 * 200 labels holding the truth; plus the share of rounds the guard read as weak or diffuse. Runs are grouped by
 * bundle, acquisition, design and the uniform-while-ppi rule; where a bundle has several such configurations, a second
 * table pairs each two by seed (the seeds both ran): their estimators' ratios to Random and the paired difference.
 *
 *   node --import tsx bench/versus-random.ts RUN.json [RUN.json ...]   (Random's runs among them)
 */
import { readFileSync } from "node:fs";
import { summariseEstimators, type SimulationResult } from "@/lib/cereal/harness/simulate";
import { mean, se } from "./sample-stats";

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: node --import tsx bench/versus-random.ts RUN.json [RUN.json ...] (cereal simulate --out files, Random's among them)\n");
  process.exit(2);
}
/** a `cereal simulate --out` file: the result with the bundle's and the surrogate's names */
type RunFile = SimulationResult & { readonly bundle: string; readonly surrogate: string };
const all = files.map((file) => ({ file, run: JSON.parse(readFileSync(file, "utf8")) as RunFile }));
const isRandom = (r: RunFile) => r.config.acquisition === "random" && r.config.design === "uniform" && r.config.estimator === "labels";
const key = (r: RunFile) => `${r.bundle}|${r.config.seed}`;
const randoms = new Map(all.filter(({ run }) => isRandom(run)).map(({ run }) => [key(run), run]));


/** what tells a bundle's configurations apart: surrogate, acquisition, design, the uniform-while-ppi rule and the residual switch (--residual-when-calibrated) */
const configurationOf = (run: RunFile) =>
  `${run.surrogate} surrogate (${run.config.acquisition}, ${run.config.design}${run.config.uniformWhileLabelsCarry ? ", uniform while ppi" : ""}${run.config.residualWhenCalibrated !== undefined ? `, residual within ${run.config.residualWhenCalibrated}` : ""})`;
const byBundle = new Map<string, { run: RunFile; random: RunFile }[]>();
for (const { file, run } of all.filter(({ run }) => !isRandom(run))) {
  const random = randoms.get(key(run));
  if (!random) throw new Error(`${file}: no Random run of ${run.bundle} seed ${run.config.seed}`);
  const group = `${run.bundle}, ${configurationOf(run)}`;
  byBundle.set(group, [...(byBundle.get(group) ?? []), { run, random }]);
}

/** per configuration group: its bundle's name, its configuration, the estimator its runs report, and per seed that estimator's AEC and Random's */
const ownBySeed = new Map<string, { name: string; configuration: string; estimator: string; bySeed: Map<number, { own: number; random: number }> }>();

console.log("| bundle | budget | estimator | seeds | AEC NMI per 1000 labels (Random's) | ratio of means | per-seed ratio, mean ± se | seeds better than Random | minus the configuration's estimator, mean ± se | 90% intervals after 200 labels holding the truth | rounds weak / diffuse |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const [bundle, pairs] of [...byBundle.entries()].sort()) {
  const budget = Math.min(...pairs.flatMap(({ run, random }) => [run.summary.nLabels, random.summary.nLabels]));
  const summaries = pairs.map(({ run, random }) => {
    const clusterings = run.config.clusterings as string[];
    const upTo = (r: SimulationResult) => r.rounds.filter((x) => x.nLabels <= budget);
    return {
      run: summariseEstimators(upTo(run), clusterings, 1000),
      random: summariseEstimators(upTo(random), clusterings, 1000).labels.aecPer1000Labels.nmi,
      weak: upTo(run).filter((x) => x.surrogateHealth?.weak).length,
      diffuse: upTo(run).filter((x) => (x.surrogateHealth as { diffuse?: boolean } | undefined)?.diffuse).length,
      rounds: upTo(run).length,
    };
  });
  const seeds = pairs.map(({ run }) => run.config.seed).join(",");
  const weak = `${summaries.reduce((a, s) => a + s.weak, 0)} / ${summaries.reduce((a, s) => a + s.diffuse, 0)} of ${summaries.reduce((a, s) => a + s.rounds, 0)}`;
  // the estimator each run reports (its configuration's), against which the compared ones are paired by seed
  const own = summaries.map((s, i) => s.run[pairs[i].run.config.estimator as string].aecPer1000Labels.nmi);
  ownBySeed.set(bundle, { name: pairs[0].run.bundle, configuration: configurationOf(pairs[0].run), estimator: pairs[0].run.config.estimator as string, bySeed: new Map(pairs.map(({ run }, i) => [run.config.seed as number, { own: own[i], random: summaries[i].random }])) });
  for (const estimator of Object.keys(summaries[0].run)) {
    const aecs = summaries.map((s) => s.run[estimator].aecPer1000Labels.nmi);
    const minusOwn = aecs.map((a, i) => a - own[i]);
    const randomAecs = summaries.map((s) => s.random);
    const ratios = aecs.map((a, i) => a / randomAecs[i]);
    const covered = summaries.reduce((a, s) => a + (s.run[estimator].coveredAfter200?.nmi ?? 0), 0);
    const count = summaries.reduce((a, s) => a + s.run[estimator].countAfter200, 0);
    const hasIntervals = summaries.every((s) => s.run[estimator].coveredAfter200 !== null);
    console.log(
      `| ${bundle} | ${budget} | ${estimator} | ${pairs.length} (${seeds}) | ${mean(aecs).toFixed(4)} (${mean(randomAecs).toFixed(4)}) | ${(mean(aecs) / mean(randomAecs)).toFixed(2)}x | ${mean(ratios).toFixed(2)} ± ${se(ratios).toFixed(2)} | ${ratios.filter((r) => r < 1).length}/${ratios.length} | ${mean(minusOwn).toFixed(4)} ± ${se(minusOwn).toFixed(4)} | ${hasIntervals ? `${covered}/${count}` : "-"} | ${weak} |`,
    );
  }
}

const groups = [...ownBySeed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const comparisons = groups.flatMap(([, ga], i) => groups.slice(i + 1).filter(([, gb]) => gb.name === ga.name).map(([, gb]) => ({ ga, gb })));
if (comparisons.length > 0) {
  console.log("\n| bundle | configuration A | configuration B | seeds (both ran) | A's estimator, ratio of means to Random's | B's | B minus A, mean ± se | seeds where B is better |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const { ga, gb } of comparisons) {
    const seeds = [...ga.bySeed.keys()].filter((seed) => gb.bySeed.has(seed)).sort((x, y) => x - y);
    if (seeds.length === 0) continue;
    const A = seeds.map((seed) => ga.bySeed.get(seed)!);
    const B = seeds.map((seed) => gb.bySeed.get(seed)!);
    const ratio = (rows: { own: number; random: number }[]) => (mean(rows.map((r) => r.own)) / mean(rows.map((r) => r.random))).toFixed(2);
    const minus = B.map((r, i) => r.own - A[i].own);
    console.log(
      `| ${ga.name} | ${ga.configuration}: ${ga.estimator} | ${gb.configuration}: ${gb.estimator} | ${seeds.length} (${seeds.join(",")}) | ${ratio(A)}x | ${ratio(B)}x | ${mean(minus).toFixed(4)} ± ${se(minus).toFixed(4)} | ${minus.filter((d) => d < 0).length}/${seeds.length} |`,
    );
  }
}
