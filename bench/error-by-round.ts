/**
 * Where an estimator's error lies, by round (issue #23): per bundle, estimator and number of labels, the
 * mean signed NMI error (estimate minus truth) over the runs and clusterings, its standard deviation, and
 * how many of the estimator's recorded 90% intervals held the truth, and their mean width. A bias that the intervals do not
 * carry shows as a mean error of the order of the interval's half-width with few intervals holding. Two more columns read
 * whether the widths are honest: the RMS error over the standard error the mean width implies (half-width / 1.645;
 * 1 is calibrated, above 1 the intervals are too narrow), and the cells split at the median width into a narrower and
 * a wider half, each half's mean error and intervals holding: where a narrow interval goes with an estimate that moved
 * less than it should (digits, MEASUREMENTS.md "Issue #23: why the intervals miss"), the narrower half holds a one-signed
 * error and misses more often.
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

const signed = (x: number): string => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
const heldOf = (list: readonly Cell[]): string => `${list.filter((c) => c.held).length}/${list.length}`;

/** the RMS error over the standard error the mean width implies, and each half's (split at the median width) mean error and intervals holding */
function widthColumns(list: readonly Cell[]): string {
  const implied = mean(list.map((c) => c.width!)) / 2 / 1.645;
  const rms = Math.sqrt(mean(list.map((c) => c.error * c.error)));
  const byWidth = [...list].sort((a, b) => a.width! - b.width!);
  const half = Math.floor(byWidth.length / 2);
  const narrower = byWidth.slice(0, half);
  const wider = byWidth.slice(half);
  const side = (cells: readonly Cell[]): string => (cells.length ? `${signed(mean(cells.map((c) => c.error)))}, ${heldOf(cells)}` : "-");
  return `${(rms / implied).toFixed(2)} | ${side(narrower)} | ${side(wider)}`;
}

console.log(
  "| bundle | estimator | labels | (run, clustering) pairs | NMI error, mean ± sd | 90% intervals holding the truth | mean width | RMS error / (half-width / 1.645) | narrower half: mean error, holding | wider half: mean error, holding |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const [bundle, byEstimator] of [...cells.entries()].sort())
  for (const [name, byLabels] of byEstimator)
    for (const [labels, list] of [...byLabels.entries()].sort((a, b) => a[0] - b[0])) {
      const errors = list.map((c) => c.error);
      const intervals = list.every((c) => c.held !== null);
      const held = intervals ? heldOf(list) : "-";
      const width = intervals ? mean(list.map((c) => c.width!)).toFixed(3) : "-";
      const widths = intervals ? widthColumns(list) : "- | - | -";
      console.log(`| ${bundle} | ${name} | ${labels} | ${list.length} | ${signed(mean(errors))} ± ${sd(errors).toFixed(3)} | ${held} | ${width} | ${widths} |`);
    }
