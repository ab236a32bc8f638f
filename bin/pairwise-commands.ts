/**
 * `cereal table --grid pairwise` (issue #25): every pair design of pairwiseGrid() over seeds, each run
 * a `cereal simulate --mode pairwise` child, resumable (one JSON line per finished run in the jobs file).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { pairwiseGrid, pairwiseRunLine, pairwiseTable, type PairwiseGridRun } from "@/lib/cereal/harness/pairwise-grid";
import type { AnswerPace } from "./answer-pace";
import { gridSimulateArgs, readJobFile, runGridJobs, type GridJob } from "./grid-jobs";

export interface PairwiseTableArgs {
  readonly bundle: string;
  readonly clustering: string;
  readonly seeds: number;
  readonly budget: number;
  readonly batch: number;
  readonly seedSize: number;
  readonly surrogate: "mlp" | "fake";
  readonly parallel: number;
  readonly jobs: string | undefined;
  readonly intervalDraws: string | undefined;
  readonly out: string | undefined;
  /** --seconds-per-answer: the table adds AEC(NMI) per annotator-hour at this pace, and a line saying where it comes from */
  readonly pace: AnswerPace | undefined;
  /** print the table of the runs already in the jobs file, run nothing */
  readonly reportOnly: boolean;
  /** runs one `cereal simulate` child with these arguments */
  readonly runChild: (args: string[]) => Promise<void>;
}

export async function runPairwiseTable(args: PairwiseTableArgs): Promise<void> {
  const bundleName = basename(resolve(args.bundle));
  const settings = `pairwise|${bundleName}|${args.clustering}|${args.surrogate}|seed-size=${args.seedSize}|batch=${args.batch}|budget=${args.budget}`;
  const jobs = args.jobs ?? join("var", "cereal", `pairwise-${bundleName}-${args.clustering}-${args.surrogate}-b${args.budget}.jsonl`);
  const grid = pairwiseGrid();
  await mkdir(dirname(resolve(jobs)), { recursive: true });
  const done = new Set((await readJobFile<PairwiseGridRun>(jobs)).map((r) => r.key));
  const todo: GridJob[] = [];
  for (let seed = 0; seed < args.seeds; seed++)
    for (const g of grid) {
      const key = `${settings}|${g.label}|seed=${seed}`;
      if (done.has(key) || args.reportOnly) continue;
      todo.push({
        key,
        label: g.label,
        seed,
        argv: [
          ...gridSimulateArgs(args, seed),
          "--mode", "pairwise",
          "--pair-design", g.design,
          "--uniform-share", String(g.uniformShare),
        ],
      });
    }
  process.stderr.write(`${grid.length * args.seeds - todo.length} of ${grid.length * args.seeds} runs already in ${jobs}; ${todo.length} to go, ${args.parallel} at a time\n`);
  const failures = await runGridJobs({
    jobs,
    todo,
    parallel: args.parallel,
    runChild: args.runChild,
    line: (job, result, seconds) => pairwiseRunLine(job.key, job.label, job.seed, result, seconds),
    describe: (line) => `: AEC nmi per 1000 answers ${line.aecPer1000Labels.nmi.toFixed(4)} (${line.seconds.toFixed(0)} s)`,
  });
  const runs = (await readJobFile<PairwiseGridRun>(jobs)).filter((r) => r.key.startsWith(settings + "|"));
  const table = pairwiseTable(grid, runs, args.pace?.seconds) + (args.pace ? `\nSeconds per answer: ${args.pace.seconds} (${args.pace.source}).` : "");
  if (args.out) await writeFile(args.out, table + "\n");
  process.stdout.write(table + "\n");
  if (failures > 0) throw new Error(`${failures} run(s) failed; re-run the same command to retry them`);
}
