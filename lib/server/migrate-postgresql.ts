import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { APPLIED_MIGRATIONS_SQL, listMigrations, migrationsDir, type MigrationResult } from "./migration-files";
import { postgresTarget } from "./postgres-url";

/**
 * Applies prisma/migrations-postgresql to the PostgreSQL schema DATABASE_URL names (created if
 * missing), like migrate.ts does for SQLite: all pending folders in one transaction, recorded in
 * Prisma's `_prisma_migrations` table (PostgreSQL's column types), so `prisma migrate deploy` run
 * online later sees the same history. An advisory lock keeps two processes starting at once from
 * applying the same migration twice.
 */
export async function migratePostgresql(url: string, dir = migrationsDir("postgresql")): Promise<MigrationResult> {
  const { pool, schema } = postgresTarget(url);
  const client = new pg.Client(pool);
  await client.connect();
  try {
    await client.query("BEGIN");
    try {
      // before anything else, CREATE SCHEMA included: two starts at once would both try to create it
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`cereal-migrate:${schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
        "id" VARCHAR(36) PRIMARY KEY NOT NULL,
        "checksum" VARCHAR(64) NOT NULL,
        "finished_at" TIMESTAMPTZ,
        "migration_name" VARCHAR(255) NOT NULL,
        "logs" TEXT,
        "rolled_back_at" TIMESTAMPTZ,
        "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "applied_steps_count" INTEGER NOT NULL DEFAULT 0
      )`);
      const done = new Set((await client.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL)).rows.map((r) => r.migration_name));
      const pending = listMigrations(dir).filter((name) => !done.has(name));
      for (const name of pending) {
        const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
        try {
          await client.query(sql);
        } catch (error) {
          throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
        }
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), createHash("sha256").update(sql).digest("hex"), name],
        );
      }
      await client.query("COMMIT");
      return { applied: pending };
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  } finally {
    await client.end();
  }
}
