/**
 * The resumable grid job both `cereal table` grids share (paper, estimators): runs not yet in the
 * jobs file are simulated as `cereal simulate` children, `parallel` at a time, and each finished
 * run is appended as one JSON line, so an interruption loses at most the runs in flight and the
 * same command resumes. A failed run is reported and counted; re-running the command retries it.
 */
import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseJobLines } from "@/lib/cereal/harness/grid";
import type { SimulationResult } from "@/lib/cereal/harness/simulate";

export interface GridJob {
  readonly key: string;
  readonly label: string;
  readonly seed: number;
  /** `cereal simulate` arguments, all but --out */
  readonly argv: readonly string[];
}

/** The settings every grid run of a table shares, as `cereal simulate` reads them. */
export interface GridRunSettings {
  readonly bundle: string;
  readonly clustering: string;
  readonly seedSize: number;
  readonly batch: number;
  readonly budget: number;
  readonly surrogate: string;
  readonly intervalDraws: string | undefined;
}

/** The `cereal simulate` arguments a grid run starts with (quiet, untimed), before its row's own. */
export function gridSimulateArgs(settings: GridRunSettings, seed: number): string[] {
  return [
    "simulate",
    "--bundle", settings.bundle,
    "--clustering", settings.clustering,
    "--seed", String(seed),
    "--seed-size", String(settings.seedSize),
    "--batch", String(settings.batch),
    "--budget", String(settings.budget),
    "--surrogate", settings.surrogate,
    "--quiet",
    "--no-timings",
    ...(settings.intervalDraws ? ["--interval-draws", settings.intervalDraws] : []),
  ];
}

/** finished runs of a jobs file (none when it does not exist yet; a torn last line is redone) */
export async function readJobFile<T>(path: string): Promise<T[]> {
  try {
    return parseJobLines<T>(await readFile(path, "utf-8"));
  } catch {
    return [];
  }
}

export interface RunGridJobsOptions<L> {
  readonly jobs: string;
  readonly todo: readonly GridJob[];
  readonly parallel: number;
  /** runs one `cereal simulate` child with these arguments */
  readonly runChild: (args: string[]) => Promise<void>;
  /** the JSON line of a finished run */
  readonly line: (job: GridJob, result: SimulationResult, seconds: number) => L;
  /** what the progress line says of a finished run, after its label and seed */
  readonly describe: (line: L) => string;
}

/** runs the jobs; returns how many failed */
export async function runGridJobs<L>(options: RunGridJobsOptions<L>): Promise<number> {
  const { todo } = options;
  const scratch = await mkdtemp(join(tmpdir(), "cereal-grid-"));
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < todo.length) {
      const job = todo[next++];
      const out = join(scratch, `${next}.json`);
      const started = performance.now();
      try {
        await options.runChild([...job.argv, "--out", out]);
        const result = JSON.parse(await readFile(out, "utf-8")) as SimulationResult;
        const line = options.line(job, result, (performance.now() - started) / 1000);
        await appendFile(options.jobs, JSON.stringify(line) + "\n");
        process.stderr.write(`done ${job.label} seed ${job.seed}${options.describe(line)}\n`);
      } catch (error) {
        failures++;
        process.stderr.write(`FAILED ${job.label} seed ${job.seed}: ${(error as Error).message}\n`);
      } finally {
        await rm(out, { force: true });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.parallel, Math.max(1, todo.length)) }, worker));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return failures;
}
