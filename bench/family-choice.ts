/**
 * Replays choosers of the surrogate's family (issue #23; ESTIMATORS.md, "Choosing the surrogate's family")
 * on runs of `cereal simulate --surrogate select|select-cells`, which report per round every candidate's
 * score on the rows labeled since and the NMI of its own soft table (RoundRecord.surrogateCandidates).
 * A chooser picks, per round, the family whose soft table that round reports; its AEC(NMI) per 1000
 * labels follows from the recorded soft NMIs, paired with Random by bundle and seed. Offline: the runs'
 * draws came from the family the run itself chose, so a chooser's row says which table it would have
 * reported on those draws, not what its own closed loop would have drawn. Rows: each family always, the
 * oracle (per round the family with the smaller error), the log-loss and the cell bias summed over every
 * batch so far or over the last W, and the mixture only where both scores prefer it.
 *
 *   node --import tsx bench/family-choice.ts RUN.json [RUN.json ...]   (Random's runs among them)
 */
import { readFileSync } from "node:fs";
import { aec } from "@/lib/cereal/harness/aec";
import type { RoundRecord, SimulationResult } from "@/lib/cereal/harness/simulate";
import { mean } from "./sample-stats";

type RunFile = SimulationResult & { readonly bundle: string; readonly surrogate: string };
const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: node --import tsx bench/family-choice.ts RUN.json [RUN.json ...] (runs of --surrogate select or select-cells, and Random's)\n");
  process.exit(2);
}
const runs = files.map((file) => ({ file, run: JSON.parse(readFileSync(file, "utf8")) as RunFile }));
const isRandom = (r: RunFile) => r.config.acquisition === "random" && r.config.design === "uniform" && r.config.estimator === "labels";
const key = (r: RunFile) => `${r.bundle}|${r.config.seed}`;
const randoms = new Map(runs.filter(({ run }) => isRandom(run)).map(({ run }) => [key(run), run]));

/** per round, the index of the family whose soft table the round reports */
type Chooser = (rounds: readonly RoundRecord[], names: readonly string[]) => number[];

/** the family with the smallest sum of `score` over the batches scored so far (the last `window` of them); `fallback` before any */
const byScore =
  (score: string, window = Infinity, fallback = 0): Chooser =>
  (rounds, names) => {
    const sums = names.map(() => [] as number[]);
    return rounds.map((r) => {
      r.surrogateCandidates!.forEach((c, k) => c.batchScores[score] !== null && sums[k].push(c.batchScores[score]!));
      if (sums[0].length === 0) return fallback;
      const totals = sums.map((xs) => xs.slice(-window).reduce((a, b) => a + b, 0));
      return totals.indexOf(Math.min(...totals));
    });
  };
const always =
  (family: string): Chooser =>
  (rounds, names) =>
    rounds.map(() => names.indexOf(family));
/** the mixture only in rounds where both the log-loss and the cell bias (every batch so far) prefer it, once `minBatches` are scored */
const bothPrefer =
  (minBatches = 1): Chooser =>
  (rounds, names) => {
    const mixture = names.indexOf("mixture");
    const a = byScore("log-loss")(rounds, names);
    const b = byScore("cell bias")(rounds, names);
    let scored = 0;
    return a.map((k, i) => {
      if (rounds[i].surrogateCandidates![0].batchScores["log-loss"] !== null) scored++;
      return k === mixture && b[i] === mixture && scored >= minBatches ? mixture : names.indexOf("mlp");
    });
  };

const clusteringsOf = (run: RunFile) => run.config.clusterings as string[];
const errorOf = (r: RoundRecord, k: number, c: string) => Math.abs(r.surrogateCandidates![k].softNmi[c] - r.true[c].nmi);
const oracle: Chooser = (rounds, names) =>
  rounds.map((r) => {
    const cs = Object.keys(r.true);
    const errors = names.map((_, k) => cs.reduce((s, c) => s + errorOf(r, k, c), 0));
    return errors.indexOf(Math.min(...errors));
  });
/** the family the run itself reported (its recorded backend) */
const recorded: Chooser = (rounds, names) => rounds.map((r) => names.findIndex((name) => r.backend?.startsWith(`${name}:`)));

const choosers: [string, Chooser][] = [
  ["the run's own choice", recorded],
  ["MLP always", always("mlp")],
  ["mixture always", always("mixture")],
  ["oracle (the smaller error each round)", oracle],
  ["log-loss, every batch", byScore("log-loss")],
  ["log-loss, last 3 batches", byScore("log-loss", 3)],
  ["cell bias, every batch", byScore("cell bias")],
  ["cell bias, last 3 batches", byScore("cell bias", 3)],
  ["cell bias, last 6 batches", byScore("cell bias", 6)],
  ["mixture where both prefer it", bothPrefer()],
  ["mixture where both prefer it, from 3 batches scored", bothPrefer(3)],
  ["mixture where both prefer it, from 5 batches scored", bothPrefer(5)],
];

const aecOf = (run: RunFile, picks: readonly number[]) => {
  const cs = clusteringsOf(run);
  return cs.reduce((s, c) => s + aec(run.rounds.map((r, i) => ({ nLabels: r.nLabels, absErr: errorOf(r, picks[i], c) })), 1000), 0) / cs.length;
};

const groups = new Map<string, RunFile[]>();
for (const { file, run } of runs.filter(({ run }) => !isRandom(run))) {
  if (!run.rounds.every((r) => r.surrogateCandidates)) throw new Error(`${file}: no surrogateCandidates (a run of --surrogate select or select-cells made since they were recorded)`);
  if (!randoms.has(key(run))) throw new Error(`${file}: no Random run of ${run.bundle} seed ${run.config.seed}`);
  const label = `${run.bundle}, ${run.surrogate}`;
  groups.set(label, [...(groups.get(label) ?? []), run]);
}
console.log("| bundle, run's surrogate | seeds | chooser | rounds on the mixture | soft AEC NMI per 1000 labels (Random's) | ratio of means |");
console.log("|---|---|---|---|---|---|");
for (const [label, group] of [...groups.entries()].sort()) {
  const random = mean(group.map((run) => randoms.get(key(run))!.summary.aecPer1000Labels.nmi));
  for (const [name, choose] of choosers) {
    const results = group.map((run) => {
      const names = run.rounds[0].surrogateCandidates!.map((c) => c.name);
      const picks = choose(run.rounds, names);
      return { aec: aecOf(run, picks), mixture: picks.filter((k) => names[k] === "mixture").length / picks.length };
    });
    const value = mean(results.map((r) => r.aec));
    console.log(`| ${label} | ${group.map((r) => r.config.seed).join(",")} | ${name} | ${mean(results.map((r) => r.mixture)).toFixed(2)} | ${value.toFixed(4)} (${random.toFixed(4)}) | ${(value / random).toFixed(2)}x |`);
  }
}
