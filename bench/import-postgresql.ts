/**
 * The import's bulk insert of item rows on SQLite and on PostgreSQL (issue 20: PostgreSQL within 2x
 * of SQLite at 1M items). Each database gets a fresh store (a temp SQLite file; a new schema on the
 * server CEREAL_TEST_POSTGRES_URL names, dropped after), one project row, then N items written
 * through imports/item-writer.ts in the import's 5,000-row batches: text items, as items.jsonl gives.
 *
 *   node --import tsx bench/import-postgresql.ts               # N = 1000000
 *   node --import tsx bench/import-postgresql.ts --n 100000
 *
 * Prints one line per database (wall seconds, rows per second, rows counted back) and the ratio,
 * with the machine's load average: on shared cores it decides the figures.
 * Not a timed test: the figures depend on the machine and its load.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const i = process.argv.indexOf("--n");
const n = i >= 0 ? Number(process.argv[i + 1]) : 1_000_000;
const BATCH = 5_000;

process.env.NEXTAUTH_SECRET ??= "bench-secret";
const root = await mkdtemp(path.join(os.tmpdir(), "cereal-bench-pg-"));
process.env.CEREAL_DATA_DIR = root;
const { migrateConfiguredDatabase } = await import("@/lib/server/migrate");
const { db } = await import("@/lib/server/db");
const { openItemWriter } = await import("@/lib/server/imports/item-writer");
const { recommendedProjectSettings } = await import("@/lib/server/project-data/options-catalogue");
const { createTestSchema, dropTestSchema } = await import("@/lib/server/test-postgresql");

async function insertSeconds(): Promise<{ seconds: number; rows: number }> {
  await migrateConfiguredDatabase();
  const project = await db().project.create({
    data: { name: "bench", dataPath: "projects/bench", bundleName: "bench", n, d: 2, itemKind: "text", seed: 1, ...recommendedProjectSettings() },
  });
  const started = performance.now();
  const writer = await openItemWriter(project.id);
  try {
    for (let first = 0; first < n; first += BATCH) {
      const rows = [];
      for (let index = first; index < Math.min(n, first + BATCH); index++) rows.push({ index, externalId: `doc-${index}`, image: null, text: `synthetic document ${index} about topic ${index % 10}` });
      await writer.write(rows);
    }
  } finally {
    await writer.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = await db().item.count({ where: { projectId: project.id } });
  await db().$disconnect();
  return { seconds, rows };
}

const figures: Record<string, { seconds: number; rows: number }> = {};
try {
  delete process.env.DATABASE_URL;
  figures.sqlite = await insertSeconds();
  console.log(`N=${n} sqlite: ${figures.sqlite.seconds.toFixed(2)} s, ${Math.round(n / figures.sqlite.seconds)} rows/s, ${figures.sqlite.rows} rows`);
  process.env.DATABASE_URL = await createTestSchema();
  try {
    figures.postgresql = await insertSeconds();
  } finally {
    await dropTestSchema(process.env.DATABASE_URL);
  }
  console.log(`N=${n} postgresql (COPY): ${figures.postgresql.seconds.toFixed(2)} s, ${Math.round(n / figures.postgresql.seconds)} rows/s, ${figures.postgresql.rows} rows`);
  console.log(`postgresql / sqlite: ${(figures.postgresql.seconds / figures.sqlite.seconds).toFixed(2)}x (load average ${os.loadavg().map((l) => l.toFixed(1)).join(", ")} on ${os.cpus().length} cores)`);
  console.log(JSON.stringify({ n, sqliteSeconds: figures.sqlite.seconds, postgresqlSeconds: figures.postgresql.seconds }));
} finally {
  await rm(root, { recursive: true, force: true });
}
