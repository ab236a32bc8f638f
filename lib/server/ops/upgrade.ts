import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { serverConfig } from "../config";
import { APPLIED_MIGRATIONS_SQL, listMigrations, migrateDatabase, MIGRATIONS_DIR } from "../migrate";
import { migratePostgresql } from "../migrate-postgresql";
import { copyDatabase } from "./database-copy";

/**
 * A safe upgrade of the SQLite database at start: when migrations are pending, a copy of the
 * database is kept beside it first (the last KEPT_COPIES of them), then every pending migration
 * applies in one transaction (migrate.ts), so a failure leaves the database as it was.
 */
export const KEPT_COPIES = 3;
const COPY_TAG = ".pre-upgrade-";

export interface UpgradeResult {
  applied: string[];
  /** the copy kept before migrating; null when nothing was pending or the database was new */
  copy: string | null;
}

export interface DatabaseLevel {
  applied: string[];
  pending: string[];
}

/** Which committed migrations a database has and lacks (a missing file has none). */
export function databaseLevel(databasePath: string, dir = MIGRATIONS_DIR): DatabaseLevel {
  let applied: string[] = [];
  if (fs.existsSync(databasePath)) {
    const db = new Database(databasePath, { readonly: true, fileMustExist: true });
    try {
      const table = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
      if (table) applied = (db.prepare(APPLIED_MIGRATIONS_SQL).all() as { migration_name: string }[]).map((r) => r.migration_name).sort();
    } finally {
      db.close();
    }
  }
  const done = new Set(applied);
  return { applied, pending: listMigrations(dir).filter((name) => !done.has(name)) };
}

export class UpgradeError extends Error {}

export function upgradeDatabase(databasePath: string, options: { dir?: string; keep?: number; now?: Date } = {}): UpgradeResult {
  const { applied, pending } = databaseLevel(databasePath, options.dir);
  const copy = pending.length && applied.length ? keepCopy(databasePath, options.keep ?? KEPT_COPIES, options.now ?? new Date()) : null;
  try {
    return { applied: migrateDatabase(databasePath, options.dir).applied, copy };
  } catch (error) {
    const level = applied.at(-1) ?? "none";
    const lines = [
      `The database upgrade failed: ${(error as Error).message}`,
      `No migration was applied: ${databasePath} is as it was (migration level ${level}); the app was not started.`,
      "To roll back, run the previous version of Cereal Studio on this data folder.",
    ];
    if (copy) lines.push(`A copy taken before the attempt is at ${copy}; to return to it, stop the app, remove ${databasePath}-wal and ${databasePath}-shm, and copy it over ${databasePath}.`);
    throw new UpgradeError(lines.join("\n"), { cause: error });
  }
}

/** A consistent copy beside the database; older copies beyond `keep` are removed. */
function keepCopy(databasePath: string, keep: number, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  let copy = `${databasePath}${COPY_TAG}${stamp}`;
  for (let n = 2; fs.existsSync(copy); n++) copy = `${databasePath}${COPY_TAG}${stamp}-${n}`;
  copyDatabase(databasePath, copy);
  const dir = path.dirname(databasePath);
  const prefix = path.basename(databasePath) + COPY_TAG;
  const copies = fs.readdirSync(dir).filter((name) => name.startsWith(prefix)).sort();
  for (const old of copies.slice(0, Math.max(0, copies.length - keep))) fs.rmSync(path.join(dir, old));
  return copy;
}

/** For `npm start` and `npm run db:migrate`: upgrade, say where the copy is, or print how to roll back and exit. */
export function upgradeOrExit(databasePath: string, print: (line: string) => void, exit: (code: number) => never = process.exit, dir = MIGRATIONS_DIR): UpgradeResult {
  try {
    const result = upgradeDatabase(databasePath, { dir });
    if (result.copy) print(`kept a copy of the database before migrating: ${result.copy}`);
    if (result.applied.length) print(`applied migrations: ${result.applied.join(", ")}`);
    return result;
  } catch (error) {
    if (!(error instanceof UpgradeError)) throw error;
    console.error(error.message);
    return exit(1);
  }
}

/**
 * `npm start` and `npm run db:migrate` on the configured database. PostgreSQL keeps no copy (take
 * one with pg_dump); its pending migrations apply in one transaction, so a failure leaves it as it was.
 */
export async function upgradeConfiguredOrExit(print: (line: string) => void, exit: (code: number) => never = process.exit): Promise<string[]> {
  const { postgresUrl, databasePath } = serverConfig();
  if (!postgresUrl) return upgradeOrExit(databasePath, print, exit).applied;
  try {
    const { applied } = await migratePostgresql(postgresUrl);
    if (applied.length) print(`applied migrations: ${applied.join(", ")}`);
    return applied;
  } catch (error) {
    console.error(`The database upgrade failed: ${(error as Error).message}`);
    console.error("No migration was applied: the PostgreSQL database is as it was (the migrations run in one transaction); the app was not started.");
    return exit(1);
  }
}
