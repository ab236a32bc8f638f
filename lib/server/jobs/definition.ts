import type { z, ZodType } from "zod";
import type { PairwiseSurrogateFactory } from "@/lib/cereal/pairwise/pair-surrogate";
import type { SurrogateFactory } from "@/lib/cereal/method/surrogate";
import type { Job, Prisma } from "@/lib/generated/prisma/client";

/**
 * A job kind as one typed definition: its payload schema, what the queue needs to know of it
 * (lane, per-project exclusivity, de-duplication, longest legitimate run, retries) and its
 * handler. A feature defines its job beside the code it runs; jobs/registry.ts lists them all.
 */

/** Rounds are what annotators wait for; heavy jobs (simulations, label-free, clustering) must not hold them up. */
export type Lane = "rounds" | "heavy";

/**
 * A claimed job's lease: the worker renews it every JOB_HEARTBEAT_MS; one not renewed for
 * JOB_LEASE_MS (a minute; CEREAL_JOB_LEASE_MS, e.g. for tests of a worker's death) is claimed
 * again (its worker died).
 */
export const JOB_LEASE_MS = Number(process.env.CEREAL_JOB_LEASE_MS) || 60_000;
export const JOB_HEARTBEAT_MS = JOB_LEASE_MS / 3;

/** A worker told to stop (SIGTERM) lets its running job finish this long (CEREAL_WORKER_GRACE_MS, default 20 s), then hands it back. */
export const WORKER_GRACE_MS = Number(process.env.CEREAL_WORKER_GRACE_MS) || 20_000;

/** The lanes a worker process can run (`npm run worker -- --lane rounds|heavy|all`). */
export const LANES: readonly Lane[] = ["rounds", "heavy"];

/** What the worker process hands every handler: the surrogates it trains (TF.js in the app, fakes in tests). */
export interface WorkerDeps {
  readonly createSurrogate: SurrogateFactory;
  /** the L2C surrogate of pairwise projects */
  readonly createPairwiseSurrogate?: PairwiseSurrogateFactory;
}

export interface JobContext<P> {
  readonly job: Job;
  /** the payload, parsed by the definition's schema */
  readonly payload: P;
  /** reports progress (stored on the job, renews the lease); false when the job was cancelled or taken over */
  progress(value: Prisma.InputJsonValue): Promise<boolean>;
  /** aborted when the job is cancelled, taken over, runs past its longest run, or the worker stops */
  readonly signal: AbortSignal;
  readonly deps: WorkerDeps;
}

export interface JobDefinition<S extends ZodType = ZodType, R extends ZodType = ZodType> {
  readonly kind: string;
  readonly payload: S;
  /** what the handler returns, stored on the job and read back typed (jobResult) */
  readonly result: R;
  readonly lane: Lane;
  /** at most one job of this kind runs per project at a time (one round per project) */
  readonly onePerProject: boolean;
  /** the project a job belongs to (its jobs are deleted with it) */
  projectOf(payload: z.infer<S>): string | null;
  /** enqueueing a payload with the key of an existing job adds nothing (enqueueUniqueJob) */
  dedupeKey?(payload: z.infer<S>): string;
  /** a run past this is stopped and counted as a failed attempt */
  readonly longestRunMs: number;
  readonly retry: { readonly maxAttempts: number; readonly backoffMs: number };
  run(ctx: JobContext<z.infer<S>>): Promise<z.input<R>>;
  /** after the last attempt failed: record the failure where users look (e.g. the Round row) */
  onFailed?(payload: z.infer<S>, message: string): Promise<void>;
}

export function defineJob<S extends ZodType, R extends ZodType>(definition: JobDefinition<S, R>): JobDefinition<S, R> {
  return definition;
}

/** The error of a payload that fails its kind's schema, naming the kind and every problem. */
export class JobPayloadError extends Error {
  constructor(kind: string, error: z.ZodError) {
    super(`Job '${kind}': invalid payload: ${error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ")}`);
    this.name = "JobPayloadError";
  }
}

export function parsePayload<S extends ZodType>(definition: JobDefinition<S>, value: unknown): z.infer<S> {
  const parsed = definition.payload.safeParse(value);
  if (!parsed.success) throw new JobPayloadError(definition.kind, parsed.error);
  return parsed.data;
}
