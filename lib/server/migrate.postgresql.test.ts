import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { serverConfig } from "./config";
import { migratePostgresql } from "./migrate-postgresql";
import { migrationsDir } from "./migration-files";
import { postgresTarget } from "./postgres-url";
import { dropTestSchema } from "./test-postgresql";

// The PostgreSQL runner against a schema of its own beside the file's test schema; migrate.test.ts
// covers the SQLite one. *.postgresql.test.ts files run in npm run test:pg only (vitest.config.ts).
const url = new URL(serverConfig().postgresUrl!);
url.searchParams.set("schema", `${postgresTarget(url.toString()).schema}_runner`);
const target = url.toString();

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client(postgresTarget(target).pool);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await dropTestSchema(target);
});

describe("the PostgreSQL migration runner", () => {
  it("applies every pending folder in one transaction, records it like Prisma, rolls all back when one fails, and applies each once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-pgmig-"));
    fs.mkdirSync(path.join(dir, "001_ok"));
    fs.writeFileSync(path.join(dir, "001_ok", "migration.sql"), "CREATE TABLE a (x INTEGER);");
    fs.mkdirSync(path.join(dir, "002_bad"));
    fs.writeFileSync(path.join(dir, "002_bad", "migration.sql"), "CREATE TABLE b (x INTEGER); INSERT INTO nope VALUES (1);");
    await expect(migratePostgresql(target, dir)).rejects.toThrow(/migration 002_bad failed: relation "nope" does not exist/);
    const schema = postgresTarget(target).schema;
    expect(await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}' AND table_name IN ('a', 'b')`)).toEqual([]);

    fs.rmSync(path.join(dir, "002_bad"), { recursive: true });
    expect(await migratePostgresql(target, dir)).toEqual({ applied: ["001_ok"] });
    expect(await migratePostgresql(target, dir)).toEqual({ applied: [] });
    const rows = await query<{ migration_name: string; checksum: string }>(`SELECT migration_name, checksum FROM "_prisma_migrations"`);
    expect(rows).toEqual([{ migration_name: "001_ok", checksum: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("brings a fresh schema to the committed PostgreSQL migrations, concurrently started processes applying each once", async () => {
    await dropTestSchema(target);
    const results = await Promise.all([migratePostgresql(target), migratePostgresql(target)]);
    const committed = fs.readdirSync(migrationsDir("postgresql")).filter((n) => /^\d{14}_/.test(n)).sort();
    expect(results.map((r) => r.applied).sort((a, b) => b.length - a.length)).toEqual([committed, []]);
  });
});
