/**
 * Tables with runs as the unit (issue #23 items 3 and 4), from `cereal simulate --out` results of
 * one configuration per bundle: a run's rounds are correlated (one surrogate, one labeled set), so
 * each run gives one trial per cell, never one per round.
 * - coverage: per bundle, clustering and budget B, whether the run's 90% NMI interval at the round
 *   with B labels holds the truth, with Wilson's 95% bounds over the runs;
 * - the stop rule (method/stop-rule.ts, as the simulator records it per round): each run judged at
 *   the first round the rule fires, and the "labels still needed" projection made at B labels
 *   checked against the labels at which the interval actually became narrow enough;
 * - the AEC of NMI against Random's runs on the same seeds.
 * bench/coverage-stop.ts runs the simulations and prints these.
 */
import type { MetricKey } from "@/lib/metrics";
import { wilsonInterval } from "./estimator-grid";
import { meanAndStandardError } from "./grid";
import { summariseEstimators, type RoundRecord, type SimulationResult } from "./simulate";
import { stopRecorder } from "./stop-records";

const METRIC: MetricKey = "nmi";
/** the stop rule's default width (stop-rule.ts): the projection solves for it */
const MAX_WIDTH = 0.02;
/** the stop rule's error target of issue #23 item 4 */
const ERROR_TARGET = 0.02;

const clusteringsOf = (run: SimulationResult) => run.config.clusterings as string[];
const median = (xs: readonly number[]) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const share = (k: number, n: number) => {
  const [lo, hi] = wilsonInterval(k, n);
  return `${k}/${n} = ${n ? (k / n).toFixed(3) : "-"} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
};

/**
 * The items a run's labels were drawn from, which the stop rule's projection reads: its config's `items` (recorded since the
 * width law, stop-rule.ts), else read off its seed stage, a uniform draw of m rows out of N with q = m / N each (runs
 * recorded before). undefined where neither is there.
 */
export function poolSizeOf(run: SimulationResult): number | undefined {
  if (typeof run.config.items === "number") return run.config.items;
  const seed = run.draws.filter((d) => d.round === 0 && d.design === "uniform");
  return seed.length && seed[0].q > 0 ? Math.round(seed.length / seed[0].q) : undefined;
}

/** The run with each round's stop record made anew by today's stop rule (stop-rule.ts) from the rounds' estimates and intervals, as the simulator records it. */
export function replayStopRule(run: SimulationResult): SimulationResult {
  const record = stopRecorder(clusteringsOf(run), { poolSize: poolSizeOf(run) });
  return { ...run, rounds: run.rounds.map((round) => ({ ...round, stop: record(round.nLabels, round.estimate, round.interval) })) };
}

/**
 * The run as if an estimator it recorded beside its own (`simulate --compare`) had been the primary: each round's estimate and
 * interval that estimator's, and the stop rule replayed over them (replayStopRule). The labels drawn are the run's
 * (the primary's surrogate chose them), so this reads a compared estimator's intervals and stop rule on the same draws.
 */
export function runAsEstimator(run: SimulationResult, estimator: string): SimulationResult {
  const rounds = run.rounds.map((round) => {
    const recorded = round.byEstimator?.[estimator];
    if (!recorded) throw new Error(`round ${round.round} recorded no estimator '${estimator}': run the simulation with --compare ${estimator}`);
    return { ...round, estimate: recorded.estimate, interval: recorded.interval, absErr: recorded.absErr };
  });
  return replayStopRule({ ...run, rounds });
}

/** whether the run's NMI interval for the clustering at the round with exactly `budget` labels holds the truth; null when the run has no such round or no interval there */
export function coveredAt(run: SimulationResult, clustering: string, budget: number): boolean | null {
  const round = run.rounds.find((r) => r.nLabels === budget);
  if (!round?.interval) return null;
  const [lo, hi] = round.interval[clustering][METRIC];
  const truth = round.true[clustering][METRIC];
  return truth >= lo && truth <= hi;
}

/** per bundle, clustering and budget: runs whose interval holds the truth, with Wilson's 95% bounds; a pooled row over the budgets per bundle (a run counts once per budget there) */
export function coverageTable(runsByBundle: ReadonlyMap<string, readonly SimulationResult[]>, budgets: readonly number[]): string {
  const lines = [
    "| bundle | clustering | labels | runs | 90% NMI interval holds the truth (Wilson 95%) |",
    "|---|---|---|---|---|",
  ];
  for (const [bundle, runs] of runsByBundle) {
    if (runs.length === 0) continue;
    let pooledCovered = 0;
    let pooledCount = 0;
    for (const clustering of clusteringsOf(runs[0]))
      for (const budget of budgets) {
        const verdicts = runs.map((run) => coveredAt(run, clustering, budget)).filter((v): v is boolean => v !== null);
        const covered = verdicts.filter(Boolean).length;
        pooledCovered += covered;
        pooledCount += verdicts.length;
        lines.push(`| ${bundle} | ${clustering} | ${budget} | ${verdicts.length} | ${share(covered, verdicts.length)} |`);
      }
    lines.push(`| ${bundle} | pooled | ${budgets.join(", ")} | ${runs.length} | ${share(pooledCovered, pooledCount)} |`);
  }
  lines.push("", "One trial per run and cell: the run's interval at the round with that many labels. The pooled row counts a run once per clustering and budget (those trials share a run, so its bounds are optimistic).");
  return lines.join("\n");
}

export interface StopOutcome {
  /** labels at the first round the rule fired; null when it never fired up to the run's end */
  readonly firedAt: number | null;
  /** |estimate - truth| of NMI at that round */
  readonly absErr: number | null;
  /** whether the interval held the truth at that round */
  readonly covered: boolean | null;
  /** labels at the first round whose interval was narrower than the rule's width (what the projection aims at); null when none was */
  readonly narrowAt: number | null;
}

/** The stop rule of one run and clustering, judged at the first round it fired (the rounds as the simulator recorded them). */
export function stopOutcome(run: SimulationResult, clustering: string): StopOutcome {
  const fired = run.rounds.find((r) => r.stop?.[clustering]?.[METRIC].converged);
  const narrow = run.rounds.find((r) => r.interval && r.interval[clustering][METRIC][1] - r.interval[clustering][METRIC][0] < MAX_WIDTH);
  if (!fired) return { firedAt: null, absErr: null, covered: null, narrowAt: narrow?.nLabels ?? null };
  const [lo, hi] = fired.interval![clustering][METRIC];
  const truth = fired.true[clustering][METRIC];
  return { firedAt: fired.nLabels, absErr: Math.abs(fired.estimate[clustering][METRIC] - truth), covered: truth >= lo && truth <= hi, narrowAt: narrow?.nLabels ?? null };
}

/** The total labels the dashboard projected at the round with `at` labels (labels so far + labels still needed); null when it made no projection (widths not shrinking, or no such round). */
export function projectedTotal(rounds: readonly RoundRecord[], clustering: string, at: number): number | null {
  const round = rounds.find((r) => r.nLabels === at);
  const needed = round?.stop?.[clustering]?.[METRIC].labelsStillNeeded;
  return needed === null || needed === undefined ? null : at + needed;
}

/** The projection made at `at` labels against what was needed, over runs that were not yet narrow there: projected / actual for the runs that became narrow, and for those that did not, how many were projected to within the budget. */
function projectionCell(runs: readonly SimulationResult[], clustering: string, at: number, budget: number): string {
  const ratios: number[] = [];
  let censored = 0;
  let censoredWithin = 0;
  let none = 0;
  for (const run of runs) {
    const { narrowAt } = stopOutcome(run, clustering);
    if (narrowAt !== null && narrowAt <= at) continue;
    const projected = projectedTotal(run.rounds, clustering, at);
    if (projected === null) {
      none++;
      continue;
    }
    if (narrowAt === null) {
      censored++;
      if (projected <= budget) censoredWithin++;
    } else ratios.push(projected / narrowAt);
  }
  const q = (p: number) => {
    const s = [...ratios].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * s.length))];
  };
  const reached = ratios.length
    ? `${ratios.length} narrow by ${budget}: projected / needed median ${median(ratios).toFixed(2)} (quartiles ${q(0.25).toFixed(2)}-${q(0.75).toFixed(2)}, range ${q(0).toFixed(2)}-${q(1).toFixed(2)})`
    : `none narrow by ${budget}`;
  return `${reached}; ${censored} not narrow by ${budget}, ${censoredWithin} of them projected <= ${budget}${none ? `; ${none} no projection` : ""}`;
}

/** per bundle and clustering: how often the stop rule fires before the budget, the NMI error where it fires, the labels it saves, and the projection at 200 and 500 labels */
export function stopRuleTable(runsByBundle: ReadonlyMap<string, readonly SimulationResult[]>, budget: number): string {
  const lines = [
    `| bundle | clustering | runs | fires before ${budget} labels (Wilson 95%) | labels at firing, median (range) | \\|NMI error\\| <= ${ERROR_TARGET} where it fires (Wilson 95%) | \\|NMI error\\| there, median / max | interval holds the truth there | labels saved per run, mean | projection at 200 labels | projection at 500 labels |`,
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const [bundle, runs] of runsByBundle) {
    if (runs.length === 0) continue;
    for (const clustering of clusteringsOf(runs[0])) {
      const outcomes = runs.map((run) => stopOutcome(run, clustering));
      const fired = outcomes.filter((o) => o.firedAt !== null && o.firedAt < budget);
      const at = fired.map((o) => o.firedAt!);
      const errors = fired.map((o) => o.absErr!);
      const saved = at.reduce((a, n) => a + (budget - n), 0) / runs.length;
      const cells = [
        bundle,
        clustering,
        String(runs.length),
        share(fired.length, runs.length),
        at.length ? `${median(at)} (${Math.min(...at)}-${Math.max(...at)})` : "-",
        share(errors.filter((e) => e <= ERROR_TARGET).length, fired.length),
        errors.length ? `${median(errors).toFixed(4)} / ${Math.max(...errors).toFixed(4)}` : "-",
        `${fired.filter((o) => o.covered).length}/${fired.length}`,
        saved.toFixed(0),
        projectionCell(runs, clustering, 200, budget),
        projectionCell(runs, clustering, 500, budget),
      ];
      lines.push(`| ${cells.join(" | ")} |`);
    }
  }
  lines.push(
    "",
    `Stop rule (stop-rule.ts defaults): the 90% NMI interval narrower than ${MAX_WIDTH} and the estimate moving less than 0.01 over the last 3 rounds. Each run counts once, at the first round the rule fired; labels saved = ${budget} minus the labels there (0 for a run where it did not fire).`,
    `Projection: labels so far + the dashboard's "labels still needed" (stop-rule.ts's width law) at that round, against the labels at which the interval first became narrower than ${MAX_WIDTH}, over the runs not yet that narrow there.`,
  );
  return lines.join("\n");
}

const aecUpTo = (run: SimulationResult, budget: number) => {
  const estimator = run.config.estimator as string;
  return summariseEstimators(run.rounds.filter((r) => r.nLabels <= budget), clusteringsOf(run), 1000)[estimator].aecPer1000Labels[METRIC];
};

/** per bundle and budget: AEC(NMI) per 1000 labels of the configuration and of Random on the same seeds, their ratio, the per-seed ratios and the paired difference */
export function versusRandomTable(runsByBundle: ReadonlyMap<string, readonly SimulationResult[]>, randomByBundle: ReadonlyMap<string, readonly SimulationResult[]>, budget: number): string {
  const lines = [
    "| bundle | labels | seeds | AEC NMI per 1000 labels (Random's) | ratio of means | per-seed ratio, mean ± se | minus Random, mean ± se | seeds better than Random |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const [bundle, runs] of runsByBundle) {
    const randoms = new Map((randomByBundle.get(bundle) ?? []).map((r) => [r.config.seed, r]));
    const pairs = runs.filter((r) => randoms.has(r.config.seed)).map((run) => ({ run, random: randoms.get(run.config.seed)! }));
    if (pairs.length === 0) continue;
    for (const b of [300, 500, budget].filter((b, i, all) => b <= budget && all.indexOf(b) === i)) {
      const aecs = pairs.map(({ run }) => aecUpTo(run, b));
      const randomAecs = pairs.map(({ random }) => aecUpTo(random, b));
      const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
      const ratios = aecs.map((a, i) => a / randomAecs[i]);
      lines.push(
        `| ${bundle} | ${b} | ${pairs.length} | ${mean(aecs).toFixed(4)} (${mean(randomAecs).toFixed(4)}) | ${(mean(aecs) / mean(randomAecs)).toFixed(2)}x | ${meanAndStandardError(ratios, 2)} | ${meanAndStandardError(aecs.map((a, i) => a - randomAecs[i]))} | ${ratios.filter((r) => r < 1).length}/${pairs.length} |`,
      );
    }
  }
  lines.push("", "AEC of |estimate - truth| of NMI, x in thousands of labels, over the rounds up to that many labels, mean over the bundle's clusterings; Random: uniform draws, the labels estimator, the same seed.");
  return lines.join("\n");
}
