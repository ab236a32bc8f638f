/**
 * The estimators' side of the command line (issue #12): `simulate --recommended` and
 * `--compare`, and `table --grid estimators`, a grid of sampling designs x trainers in which every
 * run records every estimator (they share the surrogate), run as a resumable job with one JSON line
 * per finished run. Budget 500 is read off the budget-1000 runs: a run's rounds up to 500 labels
 * are the same as a budget-500 run's (every random stream is keyed by seed, name and round).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { ESTIMATORS, estimatorByName, type Estimator } from "@/lib/cereal/method/estimators";
import { estimatorsGrid, estimatorsTable, runLine, type EstimatorGridConfig, type EstimatorGridRun } from "@/lib/cereal/harness/estimator-grid";
import { RECOMMENDED } from "@/lib/cereal/method/recommended";
import { gridSimulateArgs, readJobFile, runGridJobs, type GridJob } from "./grid-jobs";

/** what every grid run records (they share the surrogate; the labels estimator is Random's under uniform) */
const GRID_ESTIMATORS = ["labels", "argmax", "soft", "ppi", "ppi-hard", "ppi-untuned", "ppi-ht", "guarded"];

/** --compare a,b or all: the estimators recorded beside the primary one */
export function parseCompare(value: string | undefined): Estimator[] | undefined {
  if (value === undefined) return undefined;
  const names = value === "all" ? Object.keys(ESTIMATORS) : value.split(",").filter((s) => s.length > 0);
  return names.map(estimatorByName);
}

/** simulate --recommended: the recommended configuration, where the command line does not say otherwise */
export function withRecommended<
  T extends { acquisition?: string; design?: string; fixmatch?: boolean; steps?: string; "warm-steps"?: string; estimator?: string; "trainer-guard"?: boolean; "residual-when-calibrated"?: string },
>(values: T): T {
  return {
    ...values,
    "residual-when-calibrated": values["residual-when-calibrated"] ?? (RECOMMENDED.residualWhenCalibrated === null ? undefined : String(RECOMMENDED.residualWhenCalibrated)),
    steps: values.steps ?? String(RECOMMENDED.fixmatchSteps),
    "warm-steps": values["warm-steps"] ?? (RECOMMENDED.fixmatchWarmSteps === null ? undefined : String(RECOMMENDED.fixmatchWarmSteps)),
    "trainer-guard": values["trainer-guard"] || RECOMMENDED.trainerGuard,
    acquisition: values.acquisition ?? RECOMMENDED.acquisition,
    design: values.design ?? RECOMMENDED.design,
    fixmatch: values.fixmatch || RECOMMENDED.fixmatch,
    estimator: values.estimator ?? RECOMMENDED.estimator,
  };
}

export interface EstimatorsTableArgs {
  readonly bundle: string;
  readonly clustering: string;
  readonly seeds: number;
  readonly budget: number;
  readonly batch: number;
  readonly seedSize: number;
  readonly steps: number | undefined;
  readonly surrogate: "mlp" | "fake";
  readonly parallel: number;
  readonly jobs: string | undefined;
  readonly intervalDraws: string | undefined;
  readonly out: string | undefined;
  /** only the configurations whose label contains one of these ("|"-separated; labels hold commas), e.g. "Random|proportional" */
  readonly only: string | undefined;
  /** print the table of the runs already in the jobs file, run nothing */
  readonly reportOnly: boolean;
  /** asynchronous stages drawn with rankings this many rounds old (simulate --lag; default 0, the synchronous loop) */
  readonly lag?: number;
  /** warm start (simulate --warm-steps): FixMatch rounds after the first train this many steps on from the previous weights */
  readonly warmSteps?: number;
  /** runs one `cereal simulate` child with these arguments */
  readonly runChild: (args: string[]) => Promise<void>;
}

export async function runEstimatorsTable(args: EstimatorsTableArgs): Promise<void> {
  const bundleName = basename(resolve(args.bundle));
  // a row's runs are keyed by the steps they ran with: --steps for every row, else the row's own
  const stepsOf = (g: EstimatorGridConfig) => args.steps ?? g.steps;
  // keys of synchronous runs stay what they were, so existing jobs files resume
  const lag = args.lag ?? 0;
  const runKey = (g: EstimatorGridConfig, seed: number) =>
    `estimators|${bundleName}|${args.clustering}|${args.surrogate}|seed-size=${args.seedSize}|batch=${args.batch}|budget=${args.budget}|steps=${stepsOf(g) ?? "default"}${lag > 0 ? `|lag=${lag}` : ""}${args.warmSteps !== undefined ? `|warm=${args.warmSteps}` : ""}|${g.label}|seed=${seed}`;
  const jobs = args.jobs ?? join("var", "cereal", `estimators-${bundleName}-${args.clustering}-${args.surrogate}-b${args.budget}.jsonl`);
  const filters = args.only?.split("|").filter((s) => s.length > 0);
  const grid = estimatorsGrid().filter((g) => !filters || filters.some((f) => g.label.includes(f)));
  await mkdir(dirname(resolve(jobs)), { recursive: true });
  const done = new Set((await readJobFile<EstimatorGridRun>(jobs)).map((r) => r.key));
  const todo: GridJob[] = [];
  for (let seed = 0; seed < args.seeds; seed++)
    for (const g of grid) {
      const key = runKey(g, seed);
      const steps = stepsOf(g);
      if (done.has(key) || args.reportOnly) continue;
      todo.push({
        label: g.label,
        seed,
        key,
        argv: [
          ...gridSimulateArgs(args, seed),
          "--acquisition", g.acquisition,
          "--design", g.design,
          ...(g.fixmatch ? ["--fixmatch"] : []),
          ...(g.trainerGuard ? ["--trainer-guard"] : []),
          "--estimator", "labels",
          "--compare", GRID_ESTIMATORS.join(","),
          ...(steps === undefined ? [] : ["--steps", String(steps)]),
          ...(lag > 0 ? ["--lag", String(lag)] : []),
          ...(args.warmSteps !== undefined ? ["--warm-steps", String(args.warmSteps)] : []),
        ],
      });
    }
  process.stderr.write(`${grid.length * args.seeds - todo.length} of ${grid.length * args.seeds} runs already in ${jobs}; ${todo.length} to go, ${args.parallel} at a time\n`);
  const failures = await runGridJobs({
    jobs,
    todo,
    parallel: args.parallel,
    runChild: args.runChild,
    line: (job, result, seconds) => runLine(job.key, job.label, job.seed, result, args.batch, seconds),
    describe: (line) => ` (${line.seconds.toFixed(0)} s)`,
  });
  const runs = (await readJobFile<EstimatorGridRun>(jobs)).filter((r) => grid.some((g) => r.key === runKey(g, r.seed)));
  const table = estimatorsTable(grid, runs, [500, args.budget].filter((b, i, all) => b <= args.budget && all.indexOf(b) === i));
  if (args.out) await writeFile(args.out, table + "\n");
  process.stdout.write(table + "\n");
  if (failures > 0) throw new Error(`${failures} run(s) failed; re-run the same command to retry them`);
}
