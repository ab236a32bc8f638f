import PgBoss from "pg-boss";
import { serverConfig } from "../config";
import { pgBossSchema, postgresTarget } from "../postgres-url";
import { logger } from "../ops/logger";
import type { Job } from "@/lib/generated/prisma/client";
import { LANES, type JobDefinition, type Lane } from "./definition";

/**
 * Dispatch on PostgreSQL: pg-boss (10.x, the last line for Node 20) hands jobs to the workers. The
 * Job table stays the app's record (status, attempts, progress, error, result: what the dashboard,
 * cancel and retry read, the same on both databases); a pg-boss job only carries a Job row's id to
 * a worker of its lane, which claims the row and runs it through the same worker loop as on
 * SQLite. One pg-boss queue per lane (`cereal-rounds`, `cereal-heavy`), policy `short` keyed by the
 * Job id: at most one dispatch of a row waits at a time, so sending one again is always safe.
 *
 * Not pg-boss's `singleton`/`stately` policies for "one round per project": in 10.x a queued job
 * whose key is already active makes the fetch fail on the unique index and stalls the whole queue
 * (timgit/pg-boss#535), i.e. one project's round would hold up every other project's. The Job-row
 * claim keeps that rule instead (under the project's advisory lock on PostgreSQL).
 *
 * pg-boss 10 has no job heartbeat (an active job only comes back at expireInSeconds), so the
 * Job row's lease (renewed by the worker) stays the liveness signal: a worker re-dispatches rows
 * whose lease ran out (worker-loop.ts), and another worker takes the job over within a lease.
 */

export const laneQueue = (lane: Lane) => `cereal-${lane}`;

/** The wait of a handler past which pg-boss gives its dispatch up: longer than any legitimate run (the Job row's lease notices a dead worker much sooner). */
export const dispatchExpirySeconds = (definition: Pick<JobDefinition, "longestRunMs">) => Math.ceil(definition.longestRunMs / 1000) + 15 * 60;

let started: { url: string; boss: Promise<PgBoss> } | null = null;

/**
 * This process's pg-boss (started on first use, its schema installed and the lane queues created);
 * null on SQLite. A worker starts it with `maintain` (pg-boss's expiry and archiving run in the
 * workers; a web process only sends).
 */
export function pgBoss(maintain = false): Promise<PgBoss> | null {
  const url = serverConfig().postgresUrl;
  if (!url) return null;
  if (started?.url === url) return started.boss;
  const boss = startBoss(url, maintain);
  started = { url, boss };
  boss.catch(() => {
    if (started?.boss === boss) started = null;
  });
  return boss;
}

async function startBoss(url: string, maintain: boolean): Promise<PgBoss> {
  const { pool } = postgresTarget(url);
  const boss = new PgBoss({
    connectionString: pool.connectionString,
    schema: pgBossSchema(url),
    max: 4,
    supervise: maintain,
    schedule: false,
  });
  boss.on("error", (error: Error) => logger().warn({ err: error.message }, "pg-boss error"));
  await boss.start();
  await createLaneQueues(boss);
  return boss;
}

/** How often a process looks again for a lane queue that another process was creating at the same moment. */
const QUEUE_CREATE_ATTEMPTS = 6;

/**
 * Creates the lane queues that do not exist yet. Every worker and web process does this when it
 * starts, often at the same moment (a Procfile starts them together): one may find a queue created
 * meanwhile (unique violation, 23505), or two creating queues at once may deadlock on pg-boss's
 * queue table and partitions, where PostgreSQL aborts one of them (40P01; it stopped the rounds
 * worker of a CI run before it ran a job). Either way the process looks again, after a short
 * random wait, until the queue is there.
 */
export async function createLaneQueues(boss: Pick<PgBoss, "getQueue" | "createQueue">, waitMs = (attempt: number) => 50 * (attempt + 1) + Math.random() * 100): Promise<void> {
  for (const lane of LANES) {
    const name = laneQueue(lane);
    for (let attempt = 0; !(await boss.getQueue(name)); attempt++) {
      try {
        await boss.createQueue(name, { name, policy: "short" });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code !== "23505" && code !== "40P01") || attempt + 1 >= QUEUE_CREATE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, waitMs(attempt)));
      }
    }
  }
}

/** Stops this process's pg-boss (a worker after its drain; tests before their schema is dropped). */
export async function stopPgBoss(): Promise<void> {
  const current = started;
  started = null;
  if (!current) return;
  const boss = await current.boss.catch(() => null);
  await boss?.stop({ graceful: false, wait: true });
}

export type Dispatch = Pick<Job, "id" | "kind" | "runAfter">;

/**
 * Hands queued Job rows to the workers of their lane (no-op on SQLite, whose workers poll the Job
 * table). A failed send is logged, not thrown: the row is queued, and the workers' sweep
 * (worker-loop.ts) dispatches queued rows again.
 */
export async function dispatchJobs(rows: readonly Dispatch[]): Promise<void> {
  const boss = pgBoss();
  if (!boss || rows.length === 0) return;
  try {
    const ready = await boss;
    // read lazily: the registry imports the features, whose jobs enqueue through queue.ts and this module
    const { JOBS } = await import("./registry");
    for (const { id, kind, runAfter } of rows) {
      const definition = JOBS.find((d) => d.kind === kind);
      if (!definition) throw new Error(`No job kind '${kind}' in the registry.`);
      await ready.send(laneQueue(definition.lane), { jobId: id }, {
        singletonKey: id,
        startAfter: runAfter,
        expireInSeconds: dispatchExpirySeconds(definition),
        // a handler that itself throws (the database away) is tried again; the Job row counts the job's own attempts
        retryLimit: definition.retry.maxAttempts,
        retryDelay: Math.max(1, Math.round(definition.retry.backoffMs / 1000)),
        retryBackoff: true,
      });
    }
  } catch (error) {
    logger().warn({ err: (error as Error).message, jobIds: rows.map((r) => r.id) }, "pg-boss: dispatching jobs failed; the workers' sweep sends them again");
  }
}
