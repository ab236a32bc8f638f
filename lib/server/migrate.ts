import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { serverConfig } from "./config";
import { migratePostgresql } from "./migrate-postgresql";
import { APPLIED_MIGRATIONS_SQL, listMigrations, migrationsDir, type MigrationResult } from "./migration-files";
import { openDatabaseFile } from "./sqlite-file";

export { APPLIED_MIGRATIONS_SQL, listMigrations, type MigrationResult };
export const MIGRATIONS_DIR = migrationsDir("sqlite");

/** The migrations folder of the configured database (PostgreSQL has its own, migrate-postgresql.ts). */
export function configuredMigrationsDir(): string {
  return migrationsDir(serverConfig().postgresUrl ? "postgresql" : "sqlite");
}

/** Brings the configured database (DATABASE_URL) up to date: the commands and scripts call this. */
export async function migrateConfiguredDatabase(): Promise<MigrationResult> {
  const { postgresUrl, databasePath } = serverConfig();
  return postgresUrl ? migratePostgresql(postgresUrl) : migrateDatabase(databasePath);
}

/**
 * Applies the committed SQL migrations in prisma/migrations to the SQLite database in name order,
 * all pending folders in one transaction. Applied folders are recorded in Prisma's own
 * `_prisma_migrations` table (same columns and checksum), so `prisma migrate deploy` run online
 * later sees the same history. The Prisma 7 CLI cannot run here (no schema engine offline).
 */
export function migrateDatabase(databasePath: string, dir = MIGRATIONS_DIR): MigrationResult {
  const db = openDatabaseFile(databasePath);
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL,
      "checksum" TEXT NOT NULL,
      "finished_at" DATETIME,
      "migration_name" TEXT NOT NULL,
      "logs" TEXT,
      "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
    )`);
    const done = new Set((db.prepare(APPLIED_MIGRATIONS_SQL).all() as { migration_name: string }[]).map((r) => r.migration_name));
    const pending = listMigrations(dir).filter((name) => !done.has(name));
    // All pending migrations apply together or not at all: a failed upgrade leaves the database as it was.
    // Foreign keys are off meanwhile: Prisma rebuilds a table (create, copy, drop, rename) between
    // PRAGMA foreign_keys=OFF/ON, which SQLite ignores inside a transaction, and with them on,
    // dropping a parent table deletes its children (ON DELETE CASCADE). They are checked before commit.
    db.pragma("foreign_keys = OFF");
    try {
      applyPending(db, dir, pending);
    } finally {
      db.pragma("foreign_keys = ON");
    }
    return { applied: pending };
  } finally {
    db.close();
  }
}

function applyPending(db: ReturnType<typeof openDatabaseFile>, dir: string, pending: readonly string[]) {
  db.transaction(() => {
    for (const name of pending) {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      try {
        db.exec(sql);
      } catch (error) {
        throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      db.prepare(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (?, ?, current_timestamp, ?, 1)`,
      ).run(randomUUID(), checksum, name);
    }
    const broken = db.prepare("PRAGMA foreign_key_check").all() as { table: string; rowid: number; parent: string }[];
    if (broken.length) {
      const first = broken[0];
      throw new Error(`foreign key check failed: table ${first.table} row ${first.rowid} points to a missing ${first.parent} (${broken.length} row(s) in all); no migration was applied`);
    }
  })();
}
