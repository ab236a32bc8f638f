import fs from "node:fs";
import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgresql";

/** The committed migrations of each provider: SQLite's as always, PostgreSQL's beside them. */
export function migrationsDir(provider: DatabaseProvider): string {
  return path.join(process.cwd(), "prisma", provider === "sqlite" ? "migrations" : "migrations-postgresql");
}

/** The names of the migrations applied to a database (the readiness check and the upgrade ask too). */
export const APPLIED_MIGRATIONS_SQL = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;

export interface MigrationResult {
  applied: string[];
}

// /api/ready lists the folder at run time from the checkout; the ignore comments keep Next's build from tracing the whole project
export function listMigrations(dir = migrationsDir("sqlite")): string[] {
  if (!fs.existsSync(/*turbopackIgnore: true*/ dir)) return [];
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(/*turbopackIgnore: true*/ path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort();
}
