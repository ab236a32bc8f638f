/**
 * Where an estimator's error lies, by round (issue #23): per bundle, estimator and number of labels, the
 * mean signed NMI error (estimate minus truth) over the runs and clusterings, its standard deviation, and
 * how many of the estimator's recorded 90% intervals held the truth, and their mean width. A bias that the intervals do not
 * carry shows as a mean error of the order of the interval's half-width with few intervals holding.
 * Reads `cereal simulate --out` files (Random's runs, which record no estimators beside their own, are left out).
 *
 *   node --import tsx bench/error-by-round.ts [--estimators ppi,guarded] RUN.json [RUN.json ...]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { SimulationResult } from "@/lib/cereal/harness/simulate";
import { mean, sd } from "./sample-stats";

type RunFile = SimulationResult & { readonly bundle: string };
const { values, positionals: files } = parseArgs({ options: { estimators: { type: "string" } }, allowPositionals: true });
if (files.length === 0) {
  process.stderr.write("usage: node --import tsx bench/error-by-round.ts [--estimators E,E] RUN.json [RUN.json ...] (cereal simulate --out files)\n");
  process.exit(2);
}
const runs = files.map((file) => JSON.parse(readFileSync(file, "utf8")) as RunFile).filter((r) => r.rounds.some((round) => round.byEstimator));
const wanted = values.estimators?.split(",");

/** one (run, clustering) at a number of labels: the NMI error, and whether its interval held the truth and how wide it was (null: no interval) */
interface Cell {
  readonly error: number;
  readonly held: boolean | null;
  readonly width: number | null;
}

/** bundle -> estimator -> labels -> cells */
const cells = new Map<string, Map<string, Map<number, Cell[]>>>();
for (const run of runs)
  for (const round of run.rounds)
    for (const [name, record] of Object.entries(round.byEstimator ?? {})) {
      if (wanted && !wanted.includes(name)) continue;
      const byEstimator = cells.get(run.bundle) ?? new Map<string, Map<number, Cell[]>>();
      cells.set(run.bundle, byEstimator);
      const byLabels = byEstimator.get(name) ?? new Map<number, Cell[]>();
      byEstimator.set(name, byLabels);
      const list = byLabels.get(round.nLabels) ?? [];
      byLabels.set(round.nLabels, list);
      for (const [clustering, truth] of Object.entries(round.true)) {
        const interval = record.interval?.[clustering]?.nmi;
        list.push({
          error: record.estimate[clustering].nmi - truth.nmi,
          held: interval ? interval[0] <= truth.nmi && truth.nmi <= interval[1] : null,
          width: interval ? interval[1] - interval[0] : null,
        });
      }
    }

console.log("| bundle | estimator | labels | (run, clustering) pairs | NMI error, mean ± sd | 90% intervals holding the truth | mean width |");
console.log("|---|---|---|---|---|---|---|");
for (const [bundle, byEstimator] of [...cells.entries()].sort())
  for (const [name, byLabels] of byEstimator)
    for (const [labels, list] of [...byLabels.entries()].sort((a, b) => a[0] - b[0])) {
      const errors = list.map((c) => c.error);
      const intervals = list.every((c) => c.held !== null);
      const held = intervals ? `${list.filter((c) => c.held).length}/${list.length}` : "-";
      const width = intervals ? mean(list.map((c) => c.width!)).toFixed(3) : "-";
      console.log(`| ${bundle} | ${name} | ${labels} | ${list.length} | ${mean(errors) >= 0 ? "+" : ""}${mean(errors).toFixed(3)} ± ${sd(errors).toFixed(3)} | ${held} | ${width} |`);
    }
