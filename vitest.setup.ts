import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { migrateDatabase } from "./lib/server/migrate";
import { createTestSchema, dropTestSchema } from "./lib/server/test-postgresql";

// Each test file gets its own data folder and database, migrated like a real start: a SQLite file,
// or with CEREAL_TEST_DATABASE=postgresql (npm run test:pg) its own PostgreSQL schema.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-test-"));
process.env.CEREAL_DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
process.env.NEXTAUTH_SECRET = "test-secret-for-session-tokens-only";
// request and job log lines would bury the test output; logger tests write to their own stream
process.env.CEREAL_LOG_LEVEL ??= "silent";
const postgresUrl = process.env.CEREAL_TEST_DATABASE === "postgresql" ? await createTestSchema() : null;
if (postgresUrl) process.env.DATABASE_URL = postgresUrl;
else migrateDatabase(path.join(dataDir, "cereal.db"));

afterAll(async () => {
  const { db } = await import("./lib/server/db");
  const { stopPgBoss } = await import("./lib/server/jobs/pg-boss");
  await stopPgBoss();
  await db().$disconnect();
  if (postgresUrl) await dropTestSchema(postgresUrl);
  fs.rmSync(dataDir, { recursive: true, force: true });
});
