import { randomBytes } from "node:crypto";
import pg from "pg";
import path from "node:path";
import { migrateDatabase } from "./migrate";
import { migratePostgresql } from "./migrate-postgresql";
import { pgBossSchema, postgresTarget } from "./postgres-url";

/**
 * Test support for the PostgreSQL run of the suite (npm run test:pg): each test file gets a fresh
 * schema on the server CEREAL_TEST_POSTGRES_URL names, migrated like a real start, dropped after.
 */
export const TEST_POSTGRES_URL = process.env.CEREAL_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** A DATABASE_URL for a new, migrated schema; a clear error when the server does not answer. */
export async function createTestSchema(): Promise<string> {
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set("schema", `cereal_test_${randomBytes(6).toString("hex")}`);
  try {
    await migratePostgresql(url.toString());
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${TEST_POSTGRES_URL} could not be used for the tests (${(error as Error).message}). ` +
        "Start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or point CEREAL_TEST_POSTGRES_URL at a server.",
      { cause: error },
    );
  }
  return url.toString();
}

export async function dropTestSchema(databaseUrl: string): Promise<void> {
  const { pool, schema } = postgresTarget(databaseUrl);
  const client = new pg.Client(pool);
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS "${pgBossSchema(databaseUrl)}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Whether the test server answers (npm test runs the PostgreSQL suite only then). */
export async function postgresReachable(url = TEST_POSTGRES_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * For a test file about the SQLite file itself (backup, restore): it runs on a SQLite database in
 * its data folder in both suites. The PostgreSQL schema vitest.setup.ts made is still dropped after.
 */
export function runThisFileOnSqlite(): void {
  delete process.env.DATABASE_URL;
  migrateDatabase(path.join(process.env.CEREAL_DATA_DIR!, "cereal.db"));
}
