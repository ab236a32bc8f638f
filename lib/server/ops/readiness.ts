import { db } from "../db";
import type { Lane } from "../jobs/definition";
import { APPLIED_MIGRATIONS_SQL, configuredMigrationsDir, listMigrations } from "../migrate";
import { queueByLane, type LaneQueue } from "./queue-depth";
import { workerAlive } from "./worker-heartbeat";

/**
 * What `GET /api/ready` reports to a load balancer or supervisor: ready when the database
 * answers, every committed migration is applied, and a worker's heartbeat was seen in the last
 * minute; the queue depth per lane comes along for whoever watches.
 */
export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; worker: boolean };
  queue: Record<Lane, LaneQueue> | null;
}

export async function readiness(now = new Date()): Promise<Readiness> {
  let applied: Set<string>;
  try {
    const rows = await db().$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_MIGRATIONS_SQL);
    applied = new Set(rows.map((r) => r.migration_name));
  } catch {
    return { ready: false, checks: { database: false, migrations: false, worker: false }, queue: null };
  }
  const migrations = listMigrations(configuredMigrationsDir()).every((name) => applied.has(name));
  const worker = await workerAlive(now);
  return { ready: migrations && worker, checks: { database: true, migrations, worker }, queue: await queueByLane(now) };
}
