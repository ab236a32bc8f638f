import type { Job } from "@/lib/generated/prisma/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { claimJob, completeJob, failJob, LEASE_MS, newWorkerId, renewLease } from "./jobs";

/**
 * The worker process's job loop: claim a job, run its handler while renewing the lease, store
 * the result or the error. Handlers are registered per job kind by the features that need them.
 */
export interface JobContext {
  job: Job;
  /** reports progress (stored on the job, renews the lease); false when the job was cancelled */
  progress(value: Prisma.InputJsonValue): Promise<boolean>;
  signal: AbortSignal;
}
export type JobHandler = (ctx: JobContext) => Promise<Prisma.InputJsonValue>;

export interface WorkerOptions {
  handlers: Record<string, JobHandler>;
  signal: AbortSignal;
  pollMs?: number;
  log?: (message: string) => void;
}

/** Runs one claimed job to its end; returns false when no job was runnable. */
export async function runOneJob(owner: string, options: Omit<WorkerOptions, "signal"> & { signal?: AbortSignal }): Promise<boolean> {
  const job = await claimJob(owner, Object.keys(options.handlers));
  if (!job) return false;
  const controller = new AbortController();
  const renew = setInterval(() => {
    renewLease(job.id, owner).then((ours) => ours || controller.abort());
  }, LEASE_MS / 3);
  options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  try {
    const result = await options.handlers[job.kind]({
      job,
      signal: controller.signal,
      progress: async (value) => {
        const ours = await renewLease(job.id, owner, value);
        if (!ours) controller.abort();
        return ours;
      },
    });
    await completeJob(job.id, owner, result);
    options.log?.(`job ${job.kind} ${job.id} done`);
  } catch (error) {
    await failJob(job, owner, error);
    options.log?.(`job ${job.kind} ${job.id} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearInterval(renew);
  }
  return true;
}

export async function runWorker(options: WorkerOptions): Promise<void> {
  const owner = newWorkerId();
  const pollMs = options.pollMs ?? 500;
  options.log?.(`${owner} started; job kinds: ${Object.keys(options.handlers).join(", ") || "none yet"}`);
  while (!options.signal.aborted) {
    const ran = await runOneJob(owner, options);
    if (!ran) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  options.log?.(`${owner} stopped`);
}
