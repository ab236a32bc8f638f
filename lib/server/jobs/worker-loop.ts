import type { Job } from "@/lib/generated/prisma/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { JOB_HEARTBEAT_MS, JobPayloadError, parsePayload, LANES, WORKER_GRACE_MS, type JobDefinition, type Lane, type WorkerDeps } from "./definition";
import { dispatchJobs, laneQueue, pgBoss, stopPgBoss } from "./pg-boss";
import { claimJob, completeJob, failJob, handBackJob, newWorkerId, releaseJobsOf, renewLease, runnableJobs } from "./queue";
import { db, notifyProjectChanged } from "../db";
import { JOBS } from "./registry";
import { logJob } from "../ops/job-log";
import { startWorkerHeartbeat } from "../ops/worker-heartbeat";

/**
 * The worker process's job loop: claim a job of a registered kind, check its payload, run its
 * handler while a heartbeat renews the lease, store the result or the error. A payload failing
 * its schema fails the job at once (no retry can fix it). On SQLite the loop polls the Job table;
 * on PostgreSQL pg-boss hands it the rows to claim (pg-boss.ts), through the same runOneJob.
 * When the worker is told to stop (SIGTERM) it drains: no new job, the running one may finish
 * within the grace period, else it is handed back (queued again for another worker, the attempt
 * not counted).
 */
export interface WorkerOptions {
  readonly deps: WorkerDeps;
  /** the kinds this worker runs (default: every registered kind) */
  readonly jobs?: readonly JobDefinition[];
  readonly signal: AbortSignal;
  readonly pollMs?: number;
  readonly log?: (message: string) => void;
  /** this worker's id as the queue records it (a supervisor assigns it to release the worker's jobs when it dies) */
  readonly workerId?: string;
  /** after the stop signal, how long the running job may take to finish before it is handed back */
  readonly graceMs?: number;
}

/** The job kinds a worker of these lanes runs. */
export const jobsOfLanes = (lanes: readonly Lane[], jobs: readonly JobDefinition[] = JOBS) => jobs.filter((d) => lanes.includes(d.lane));

/** A worker's lanes from its command line: `--lane rounds|heavy|all` (default all). */
export function lanesFromArgs(argv: readonly string[]): Lane[] {
  const at = argv.indexOf("--lane");
  const value = at === -1 ? "all" : argv[at + 1];
  if (value === "all") return [...LANES];
  if (LANES.includes(value as Lane)) return [value as Lane];
  throw new Error(`--lane takes rounds, heavy or all (got ${value ?? "nothing"})`);
}

/** Runs one claimed job (the oldest runnable, or the row `jobId` names) to its end; returns false when no job was runnable. */
export async function runOneJob(owner: string, options: Omit<WorkerOptions, "signal"> & { signal?: AbortSignal; jobId?: string }): Promise<boolean> {
  const jobs = options.jobs ?? JOBS;
  const job = await claimJob(owner, jobs, new Date(), options.jobId);
  if (!job) return false;
  const definition = jobs.find((d) => d.kind === job.kind)!;
  // a project's job changing status or progress changes its live snapshot (NOTIFY on PostgreSQL;
  // best effort: the live feeds' slow poll catches what a lost notification missed)
  const changed = () => (job.projectId ? notifyProjectChanged(db(), job.projectId).catch(() => undefined) : Promise.resolve());
  await changed();
  const started = performance.now();
  const controller = new AbortController();
  let overran = false;
  let handedBack = false;
  const heartbeat = setInterval(() => {
    renewLease(job.id, owner).then((ours) => ours || controller.abort());
  }, JOB_HEARTBEAT_MS);
  const watchdog = setTimeout(() => {
    overran = true;
    controller.abort();
  }, definition.longestRunMs);
  // the worker stops: the job may finish within the grace period, else it goes back to the queue
  let grace: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    grace = setTimeout(() => {
      handedBack = true;
      controller.abort();
    }, options.graceMs ?? WORKER_GRACE_MS);
  };
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener("abort", stop, { once: true });
  let payload: unknown;
  // progress writes go out one at a time, in order, and end before the job's own: on PostgreSQL
  // the pool's connections could land an older progress after a newer one (SQLite's one did not)
  let progressWrites: Promise<unknown> = Promise.resolve();
  try {
    payload = parsePayload(definition, job.payload);
    const result = await definition.run({
      job,
      payload,
      deps: options.deps,
      signal: controller.signal,
      progress: (value) => {
        const write = progressWrites.then(() => renewLease(job.id, owner, value)).then(async (ours) => {
          if (!ours) controller.abort();
          else await changed();
          return ours;
        });
        progressWrites = write.catch(() => undefined);
        return write;
      },
    });
    await progressWrites;
    await completeJob(job.id, owner, result as Prisma.InputJsonValue);
    logJob(job, payload, "done", started);
  } catch (caught) {
    if (handedBack) {
      await progressWrites;
      await handBackJob(job, owner);
      logJob(job, payload, "handed back", started, "the worker stopped before the job finished");
      return true;
    }
    const error = overran ? new Error(`The job ran past its longest legitimate run time (${Math.round(definition.longestRunMs / 60_000)} min) and was stopped.`) : caught;
    await progressWrites;
    await settleFailure(definition, job, owner, error, payload, started);
  } finally {
    await changed();
    clearInterval(heartbeat);
    clearTimeout(watchdog);
    clearTimeout(grace);
    options.signal?.removeEventListener("abort", stop);
  }
  return true;
}

async function settleFailure(definition: JobDefinition, job: Job, owner: string, error: unknown, payload: unknown, started: number) {
  const message = error instanceof Error ? error.message : String(error);
  const invalid = error instanceof JobPayloadError;
  const failedForGood = await failJob(job, owner, error, definition.retry, invalid);
  if (failedForGood && !invalid) await definition.onFailed?.(payload, message);
  logJob(job, payload, failedForGood ? "failed" : "retrying", started, message);
}

/**
 * A worker process is gone (its supervisor saw it exit): its running jobs go back to the queue at
 * once, and one that has now killed its worker too often fails, its kind's onFailed told.
 */
export async function releaseDeadWorker(workerId: string, jobs: readonly JobDefinition[] = JOBS): Promise<{ requeued: string[]; failed: string[] }> {
  const { requeued, failed } = await releaseJobsOf(workerId);
  for (const job of failed) {
    const definition = jobs.find((d) => d.kind === job.kind);
    if (!definition?.onFailed) continue;
    await definition.onFailed(parsePayload(definition, job.payload), job.error ?? "");
  }
  return { requeued, failed: failed.map((j) => j.id) };
}

/** How often a worker on PostgreSQL sends pg-boss the rows that are runnable (due retries, rows whose worker died, a send that failed). */
export const SWEEP_MS = 5_000;

export async function runWorker(options: WorkerOptions): Promise<void> {
  const owner = options.workerId ?? newWorkerId();
  const jobs = options.jobs ?? JOBS;
  const kinds = jobs.map((d) => `${d.kind} (${d.lane})`);
  // the heartbeat row tells /api/ready a worker is alive, and /api/metrics how often it restarted
  const heartbeat = await startWorkerHeartbeat(owner);
  options.log?.(`${owner} started; job kinds: ${kinds.join(", ")}`);
  try {
    if (pgBoss()) await workFromPgBoss(owner, { ...options, jobs });
    else await pollJobTable(owner, { ...options, jobs });
  } finally {
    await heartbeat.stop();
  }
  options.log?.(`${owner} stopped`);
}

/** SQLite: poll the Job table for the next runnable job of this worker's kinds. */
async function pollJobTable(owner: string, options: WorkerOptions): Promise<void> {
  const pollMs = options.pollMs ?? 500;
  while (!options.signal.aborted) {
    const ran = await runOneJob(owner, options);
    if (!ran) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * PostgreSQL: pg-boss hands this worker the Job rows of its lanes, one at a time (TF.js's engine is
 * global to the process); a sweep sends pg-boss the rows that became runnable without a send.
 */
async function workFromPgBoss(owner: string, options: WorkerOptions): Promise<void> {
  const boss = (await pgBoss(true))!;
  const jobs = options.jobs!;
  const lanes = [...new Set(jobs.map((d) => d.lane))];
  let running: Promise<unknown> = Promise.resolve();
  const handle = async (jobId: string) => {
    // fetched while draining: the row stays queued, and another worker's sweep sends it again
    if (options.signal.aborted) return;
    const run = running.then(() => runOneJob(owner, { ...options, jobId }));
    running = run.catch(() => undefined);
    await run;
  };
  const workers = await Promise.all(
    lanes.map((lane) =>
      boss.work<{ jobId: string }>(laneQueue(lane), { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, (options.pollMs ?? 500) / 1000) }, async ([message]) => {
        await handle(message.data.jobId);
      }),
    ),
  );
  const sweep = async () => dispatchJobs(await runnableJobs(jobs));
  await sweep().catch(() => undefined);
  const sweeper = setInterval(() => void sweep().catch(() => undefined), SWEEP_MS);
  await new Promise<void>((resolve) => (options.signal.aborted ? resolve() : options.signal.addEventListener("abort", () => resolve(), { once: true })));
  clearInterval(sweeper);
  await Promise.all(workers.map((id) => boss.offWork({ id })));
  await running;
  await stopPgBoss();
}
