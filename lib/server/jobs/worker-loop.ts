import type { Job } from "@/lib/generated/prisma/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { JOB_HEARTBEAT_MS, JobPayloadError, parsePayload, type JobDefinition, type WorkerDeps } from "./definition";
import { claimJob, completeJob, failJob, newWorkerId, releaseJobsOf, renewLease } from "./queue";
import { db, notifyProjectChanged } from "../db";
import { JOBS } from "./registry";
import { logJob } from "../ops/job-log";
import { startWorkerHeartbeat } from "../ops/worker-heartbeat";

/**
 * The worker process's job loop: claim a job of a registered kind, check its payload, run its
 * handler while a heartbeat renews the lease, store the result or the error. A payload failing
 * its schema fails the job at once (no retry can fix it).
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
}

/** Runs one claimed job to its end; returns false when no job was runnable. */
export async function runOneJob(owner: string, options: Omit<WorkerOptions, "signal"> & { signal?: AbortSignal }): Promise<boolean> {
  const jobs = options.jobs ?? JOBS;
  const job = await claimJob(owner, jobs);
  if (!job) return false;
  const definition = jobs.find((d) => d.kind === job.kind)!;
  // a project's job changing status or progress changes its live snapshot (NOTIFY on PostgreSQL;
  // best effort: the live feeds' slow poll catches what a lost notification missed)
  const changed = () => (job.projectId ? notifyProjectChanged(db(), job.projectId).catch(() => undefined) : Promise.resolve());
  await changed();
  const started = performance.now();
  const controller = new AbortController();
  let overran = false;
  const heartbeat = setInterval(() => {
    renewLease(job.id, owner).then((ours) => ours || controller.abort());
  }, JOB_HEARTBEAT_MS);
  const watchdog = setTimeout(() => {
    overran = true;
    controller.abort();
  }, definition.longestRunMs);
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
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
    const error = overran ? new Error(`The job ran past its longest legitimate run time (${Math.round(definition.longestRunMs / 60_000)} min) and was stopped.`) : caught;
    await progressWrites;
    await settleFailure(definition, job, owner, error, payload, started);
  } finally {
    await changed();
    clearInterval(heartbeat);
    clearTimeout(watchdog);
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

export async function runWorker(options: WorkerOptions): Promise<void> {
  const owner = options.workerId ?? newWorkerId();
  const pollMs = options.pollMs ?? 500;
  const kinds = (options.jobs ?? JOBS).map((d) => `${d.kind} (${d.lane})`);
  // the heartbeat row tells /api/ready a worker is alive, and /api/metrics how often it restarted
  const heartbeat = await startWorkerHeartbeat(owner);
  options.log?.(`${owner} started; job kinds: ${kinds.join(", ")}`);
  try {
    while (!options.signal.aborted) {
      const ran = await runOneJob(owner, options);
      if (!ran) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    await heartbeat.stop();
  }
  options.log?.(`${owner} stopped`);
}
