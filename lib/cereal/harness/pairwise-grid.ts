/**
 * The pairwise grid (`cereal table --grid pairwise`, issue #25): the pair designs the app offers as
 * a project setting, each simulated with the oracle over seeds; the table gives AEC per 1000
 * answers (mean ± standard error over seeds), the ratio to random pairs, and the coverage of the
 * 90% intervals pooled over rounds and clusterings, with a bootstrap over seeds (runs as unit).
 */
import type { MetricKey } from "@/lib/metrics";
import { aecPerAnnotatorHour } from "./aec";
import { meanAndStandardError } from "./grid";
import { seedBootstrapInterval, TABLE_METRICS } from "./estimator-grid";
import type { PairDesign } from "../pairwise/pair-designs";
import type { PairwiseSimulationResult } from "./pairwise-simulate";

export interface PairwiseGridConfig {
  readonly label: string;
  readonly design: PairDesign;
  readonly uniformShare: number;
}

/** random pairs (the recommended design) and the two model-based designs as the app draws them (half uniform) */
export function pairwiseGrid(): PairwiseGridConfig[] {
  return [
    { label: "random pairs", design: "random", uniformShare: 0 },
    { label: "uncertain pairs, half uniform", design: "uncertain", uniformShare: 0.5 },
    { label: "anchor pairs, half uniform", design: "anchor", uniformShare: 0.5 },
  ];
}

/** One finished run: AEC per 1000 answers, and how many (round, clustering) intervals held the truth */
export interface PairwiseGridRun {
  readonly key: string;
  readonly label: string;
  readonly seed: number;
  readonly aecPer1000Labels: Record<string, number>;
  /** NMI intervals holding the truth, of `count` (round, clustering) pairs; null without intervals */
  readonly covered: number | null;
  readonly count: number;
  readonly seconds: number;
}

export function pairwiseRunLine(key: string, label: string, seed: number, result: Pick<PairwiseSimulationResult, "config" | "summary">, seconds: number): PairwiseGridRun {
  const clusterings = (result.config.clusterings as string[]).length;
  const count = result.summary.rounds * clusterings;
  const coverage = result.summary.intervalCoverage;
  return {
    key,
    label,
    seed,
    aecPer1000Labels: Object.fromEntries(TABLE_METRICS.map((k: MetricKey) => [k, result.summary.aecPer1000Labels[k]])),
    covered: coverage ? Math.round(coverage.nmi * count) : null,
    count,
    seconds,
  };
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN);

/** Markdown: one row per pair design; the ratio is to the random pairs' mean AEC(NMI); with secondsPerAnswer, AEC(NMI) per annotator-hour too */
export function pairwiseTable(grid: readonly PairwiseGridConfig[], runs: readonly PairwiseGridRun[], secondsPerAnswer?: number): string {
  const hours = secondsPerAnswer === undefined ? "" : ` AEC nmi per annotator-hour (${secondsPerAnswer} s/answer) |`;
  const randomNmi = mean(runs.filter((r) => r.label === grid.find((g) => g.design === "random")?.label).map((r) => r.aecPer1000Labels.nmi));
  const out = [
    `| pair design | runs | ${TABLE_METRICS.map((m) => `AEC ${m}`).join(" | ")} | NMI vs random pairs | NMI 90% interval coverage (seed bootstrap 95%) |${hours}`,
    `|---|---|${TABLE_METRICS.map(() => "---|").join("")}---|---|${hours ? "---|" : ""}`,
  ];
  for (const g of grid) {
    const mine = runs.filter((r) => r.label === g.label);
    if (mine.length === 0) continue;
    const cells = TABLE_METRICS.map((m) => meanAndStandardError(mine.map((r) => r.aecPer1000Labels[m])));
    const ratio = mean(mine.map((r) => r.aecPer1000Labels.nmi)) / randomNmi;
    const perRun = mine.filter((r) => r.covered !== null).map((r) => ({ covered: r.covered!, count: r.count }));
    const covered = perRun.reduce((s, r) => s + r.covered, 0);
    const count = perRun.reduce((s, r) => s + r.count, 0);
    const [lo, hi] = seedBootstrapInterval(perRun);
    const coverage = count > 0 ? `${(covered / count).toFixed(3)} (${covered}/${count}); by seed [${lo.toFixed(3)}, ${hi.toFixed(3)}]` : "-";
    const perHour = secondsPerAnswer === undefined ? "" : ` ${meanAndStandardError(mine.map((r) => aecPerAnnotatorHour(r.aecPer1000Labels.nmi, secondsPerAnswer)))} |`;
    out.push(`| ${g.label} | ${mine.length} | ${cells.join(" | ")} | ${Number.isFinite(ratio) ? ratio.toFixed(2) + "x" : "-"} | ${coverage} |${perHour}`);
  }
  out.push("", "AEC of |estimate - truth|, x in thousands of answered pairs (summary.aecPer1000Labels); mean ± standard error over seeds.");
  return out.join("\n");
}
