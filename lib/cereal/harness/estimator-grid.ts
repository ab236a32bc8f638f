/**
 * The estimators grid (`cereal table --grid estimators`, issue #12): sampling designs x trainers,
 * each run recording every estimator on the same surrogate, so the table compares estimators x
 * designs at the cost of one run per cell of designs. AEC has x in thousands of labels
 * (summary.aecPer1000Labels); budget 500 is the prefix of the budget-1000 runs. Coverage counts the
 * (round, clustering) pairs after 200 labels whose 90% interval holds the truth, pooled over seeds,
 * with a Wilson score interval (rounds of one run are correlated, so it is optimistic) and a
 * bootstrap over seeds (which is not).
 */
import type { MetricKey } from "@/lib/metrics";
import type { Acquisition } from "../method/acquisition";
import type { Design } from "../method/designs";
import { meanAndStandardError, PAPER_NAMES } from "./grid";
import { quantile } from "../method/intervals";
import { Random } from "../../random/named-streams";
import { RECOMMENDED } from "../method/recommended";
import { summariseEstimators, type SimulationResult } from "./simulate";

export interface EstimatorGridConfig {
  readonly label: string;
  readonly acquisition: Acquisition;
  readonly design: Design;
  readonly fixmatch: boolean;
  /** FixMatch falls back to supervised training while the surrogate is weak (the recommended configuration) */
  readonly trainerGuard?: boolean;
  /** FixMatch steps per round, unless the command gives --steps; absent: simulate's default */
  readonly steps?: number;
}

export const TABLE_METRICS: readonly MetricKey[] = ["nmi", "ami", "ari"];

/** the recommended configuration (recommended.ts) as it runs in the app, trainer guard and steps included */
export const RECOMMENDED_ROW: EstimatorGridConfig = {
  label: `Recommended: ${PAPER_NAMES[RECOMMENDED.acquisition]} (${RECOMMENDED.design}), ${RECOMMENDED.fixmatch ? "FixMatch" : "supervised"}${RECOMMENDED.trainerGuard ? " + trainer guard" : ""}`,
  acquisition: RECOMMENDED.acquisition,
  design: RECOMMENDED.design,
  fixmatch: RECOMMENDED.fixmatch,
  trainerGuard: RECOMMENDED.trainerGuard,
  steps: RECOMMENDED.fixmatchSteps,
};

/** the recommended configuration; Random with either trainer (the uniform design: the labels estimator of these runs is Random); Hard NMI as the paper draws it (top score) and as a probability sample */
export function estimatorsGrid(): EstimatorGridConfig[] {
  return [
    RECOMMENDED_ROW,
    { label: "Random (uniform), FixMatch + trainer guard", acquisition: "random", design: "uniform", fixmatch: true, trainerGuard: true },
    { label: "Random (uniform), supervised", acquisition: "random", design: "uniform", fixmatch: false },
    { label: "Hard NMI (top-score), FixMatch", acquisition: "hardnmi", design: "top-score", fixmatch: true },
    { label: "Hard NMI (proportional), supervised", acquisition: "hardnmi", design: "proportional", fixmatch: false },
    { label: "Hard NMI (proportional), FixMatch", acquisition: "hardnmi", design: "proportional", fixmatch: true },
  ];
}

export interface EstimatorBudgetFigures {
  readonly aecPer1000Labels: Record<string, number>;
  readonly coveredAfter200: Record<string, number> | null;
  readonly countAfter200: number;
}

/** One finished run: per budget, per estimator, the AEC and coverage counts of NMI, AMI, ARI */
export interface EstimatorGridRun {
  readonly key: string;
  readonly label: string;
  readonly seed: number;
  readonly budgets: Record<string, Record<string, EstimatorBudgetFigures>>;
  /** mean over rounds of the previous models' out-of-sample accuracy, and the share of rounds flagged weak */
  readonly surrogateAccuracy: number | null;
  readonly weakShare: number;
  readonly seconds: number;
}

export function runLine(key: string, label: string, seed: number, result: SimulationResult, batch: number, seconds: number): EstimatorGridRun {
  const clusterings = result.config.clusterings as string[];
  const budgets: EstimatorGridRun["budgets"] = {};
  for (const budget of [500, 1000]) {
    if (result.summary.nLabels < budget) continue;
    const summary = summariseEstimators(
      result.rounds.filter((r) => r.nLabels <= budget),
      clusterings,
      batch,
    );
    budgets[budget] = Object.fromEntries(
      Object.entries(summary).map(([name, s]) => [
        name,
        {
          aecPer1000Labels: Object.fromEntries(TABLE_METRICS.map((k) => [k, s.aecPer1000Labels[k]])),
          coveredAfter200: s.coveredAfter200 ? Object.fromEntries(TABLE_METRICS.map((k) => [k, s.coveredAfter200![k]])) : null,
          countAfter200: s.countAfter200,
        },
      ]),
    );
  }
  const accuracies = result.rounds.map((r) => r.surrogateHealth?.recentAccuracy ?? null).filter((a): a is number => a !== null);
  return {
    key,
    label,
    seed,
    budgets,
    surrogateAccuracy: accuracies.length > 0 ? accuracies.reduce((a, b) => a + b, 0) / accuracies.length : null,
    weakShare: result.rounds.filter((r) => r.surrogateWeak).length / Math.max(1, result.rounds.length),
    seconds,
  };
}

/** Wilson score interval for k successes in n trials (Wilson 1927), z = 1.96 by default */
export function wilsonInterval(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * 95% interval of a pooled coverage sum(covered) / sum(count) by resampling whole runs (seeds) with
 * replacement: the rounds of one run share a surrogate and a labeled set, so they are not the
 * independent trials Wilson's interval assumes. Deterministic (a fixed seed).
 */
export function seedBootstrapInterval(runs: readonly { covered: number; count: number }[], draws = 2000): [number, number] {
  if (runs.length === 0) return [0, 1];
  const random = new Random(0);
  const values = new Float64Array(draws);
  for (let b = 0; b < draws; b++) {
    let covered = 0;
    let count = 0;
    for (let i = 0; i < runs.length; i++) {
      const run = runs[random.int(runs.length)];
      covered += run.covered;
      count += run.count;
    }
    values[b] = count > 0 ? covered / count : 0;
  }
  values.sort();
  return [quantile(values, 0.025), quantile(values, 0.975)];
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN);

/** Markdown: per budget, one row per configuration x estimator; AEC ratio against Random's labels-only NMI */
export function estimatorsTable(grid: readonly EstimatorGridConfig[], runs: readonly EstimatorGridRun[], budgets: readonly number[]): string {
  const out: string[] = [];
  const estimatorNames = [...new Set(runs.flatMap((r) => Object.keys(Object.values(r.budgets)[0] ?? {})))];
  for (const budget of budgets) {
    const key = String(budget);
    // Random = uniform sampling and the labels alone: the labels estimator of any uniform run (its draws ignore the model)
    const base = runs.filter((r) => r.label.includes("(uniform)") && r.budgets[key]?.labels);
    const randomNmi = mean(base.map((r) => r.budgets[key].labels.aecPer1000Labels.nmi));
    out.push(`### budget ${budget}`, "");
    out.push(`| configuration | estimator | runs | ${TABLE_METRICS.map((m) => `AEC ${m}`).join(" | ")} | NMI vs Random | NMI coverage after 200 (Wilson 95%; seed bootstrap 95%) |`);
    out.push(`|---|---|---|${TABLE_METRICS.map(() => "---|").join("")}---|---|`);
    for (const g of grid) {
      const mine = runs.filter((r) => r.label === g.label && r.budgets[key]);
      if (mine.length === 0) continue;
      for (const name of estimatorNames) {
        const figures = mine.map((r) => r.budgets[key][name]).filter((f) => f !== undefined);
        if (figures.length === 0) continue;
        const cells = TABLE_METRICS.map((m) => meanAndStandardError(figures.map((f) => f.aecPer1000Labels[m])));
        const ratio = mean(figures.map((f) => f.aecPer1000Labels.nmi)) / randomNmi;
        const perRun = figures.map((f) => ({ covered: f.coveredAfter200?.nmi ?? 0, count: f.coveredAfter200 ? f.countAfter200 : 0 }));
        const covered = perRun.reduce((s, r) => s + r.covered, 0);
        const count = perRun.reduce((s, r) => s + r.count, 0);
        const [lo, hi] = wilsonInterval(covered, count);
        const [slo, shi] = seedBootstrapInterval(perRun);
        const coverage = count > 0 ? `${(covered / count).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}] (${covered}/${count}); by seed [${slo.toFixed(3)}, ${shi.toFixed(3)}]` : "-";
        out.push(`| ${g.label} | ${name} | ${figures.length} | ${cells.join(" | ")} | ${Number.isFinite(ratio) ? ratio.toFixed(2) + "x" : "-"} | ${coverage} |`);
      }
    }
    out.push("");
  }
  const health = grid
    .map((g) => {
      const mine = runs.filter((r) => r.label === g.label);
      const acc = mine.map((r) => r.surrogateAccuracy).filter((a): a is number => a !== null);
      return mine.length ? `${g.label}: out-of-sample surrogate accuracy ${acc.length ? mean(acc).toFixed(3) : "-"}, rounds flagged weak ${(100 * mean(mine.map((r) => r.weakShare))).toFixed(0)}%` : null;
    })
    .filter((s): s is string => s !== null);
  out.push("AEC of |estimate - truth|, x in thousands of labels (summary.aecPer1000Labels); mean ± standard error over seeds.");
  out.push("NMI vs Random: mean AEC(NMI) over the mean labels-only AEC(NMI) of the uniform runs at the same budget.");
  out.push(...health.map((h) => `- ${h}`));
  return out.join("\n");
}
