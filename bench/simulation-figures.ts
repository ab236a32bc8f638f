/**
 * Figures of a set of `cereal simulate --out FILE.json` runs, grouped by bundle, lag and skip
 * rate (the runs of one group differ by seed): per estimator, AEC of NMI (x in rounds, and x in
 * thousands of labels) mean and standard deviation over the runs, the signed NMI error at the last round (mean over the
 * clusterings, then over the runs, with its standard error over the runs), and how many of the
 * last round's 90% NMI intervals hold the truth, and of every round's after 200 labels. Prints a
 * markdown table.
 *
 *   node --import tsx bench/simulation-figures.ts var/lag/digits-lag*-seed*.json
 */
import { readFileSync } from "node:fs";
import { mean, sd } from "./sample-stats";

interface Run {
  readonly bundle: string;
  readonly config: { readonly seed: number; readonly lag?: number; readonly skipRate?: number };
  readonly rounds: {
    readonly nLabels: number;
    readonly true: Record<string, { nmi: number }>;
    readonly byEstimator: Record<string, { estimate: Record<string, { nmi: number }>; interval: Record<string, { nmi: [number, number] }> | null }>;
  }[];
  readonly summary: {
    readonly byEstimator: Record<string, { aec: { nmi: number }; aecPer1000Labels: { nmi: number }; coveredAfter200: { nmi: number } | null; countAfter200: number }>;
  };
}

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: node --import tsx bench/simulation-figures.ts RUN.json [RUN.json ...] (cereal simulate --out files)\n");
  process.exit(2);
}


const groups = new Map<string, Run[]>();
for (const file of files) {
  const run = JSON.parse(readFileSync(file, "utf8")) as Run;
  const key = `${run.bundle} | ${run.config.lag ?? 0} | ${run.config.skipRate ?? 0}`;
  groups.set(key, [...(groups.get(key) ?? []), run]);
}

console.log("| bundle | lag | skip rate | estimator | runs (seeds) | AEC NMI (rounds), mean ± sd | AEC NMI (per 1000 labels) | last round: labels | signed NMI error, mean ± se | last round: 90% intervals holding the truth | rounds after 200 labels: the same |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const [key, runs] of [...groups.entries()].sort()) {
  for (const estimator of Object.keys(runs[0].summary.byEstimator)) {
    const aecs = runs.map((r) => r.summary.byEstimator[estimator].aec.nmi);
    const per1000 = runs.map((r) => r.summary.byEstimator[estimator].aecPer1000Labels.nmi);
    const signed: number[] = [];
    let covered = 0;
    let intervals = 0;
    for (const run of runs) {
      const last = run.rounds[run.rounds.length - 1];
      const e = last.byEstimator[estimator];
      const names = Object.keys(last.true);
      signed.push(mean(names.map((c) => e.estimate[c].nmi - last.true[c].nmi)));
      for (const c of names) {
        if (!e.interval) continue;
        intervals++;
        const [lo, hi] = e.interval[c].nmi;
        if (last.true[c].nmi >= lo && last.true[c].nmi <= hi) covered++;
      }
    }
    const late = runs.reduce((a, r) => a + (r.summary.byEstimator[estimator].coveredAfter200?.nmi ?? 0), 0);
    const lateCount = runs.reduce((a, r) => a + r.summary.byEstimator[estimator].countAfter200, 0);
    const labels = mean(runs.map((r) => r.rounds[r.rounds.length - 1].nLabels));
    const seeds = runs.map((r) => r.config.seed).sort((a, b) => a - b);
    console.log(
      `| ${key} | ${estimator} | ${runs.length} (${seeds[0]}-${seeds[seeds.length - 1]}) | ${mean(aecs).toFixed(4)} ± ${sd(aecs).toFixed(4)} | ${mean(per1000).toFixed(4)} ± ${sd(per1000).toFixed(4)} | ${labels.toFixed(0)} | ` +
        `${mean(signed).toFixed(4)} ± ${(sd(signed) / Math.sqrt(runs.length)).toFixed(4)} | ${intervals ? `${covered}/${intervals}` : "-"} | ${intervals && lateCount ? `${late}/${lateCount}` : "-"} |`,
    );
  }
}
