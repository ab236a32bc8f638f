/**
 * `npm run db:new-migration -- NAME`: for each provider whose migrations lag prisma/schema.prisma,
 * writes <folder>/<timestamp>_NAME/migration.sql with the SQL from that folder's last schema to
 * the current one: prisma/migrations (SQLite) and prisma/migrations-postgresql (PostgreSQL, the
 * schema derived by bin/prisma-schemas.ts). A provider already up to date is left alone, so after
 * a merge that brought SQLite migrations only, the same command writes the PostgreSQL catch-up.
 *
 * Works offline and needs no database: the SQL comes from Prisma 6.19's wasm schema engine
 * (bin/prisma6.ts). <folder>/schema.snapshot.prisma is prisma/schema.prisma as of the folder's
 * newest migration; the drift test checks the folders against the schema through a real database.
 */
import fs from "node:fs";
import path from "node:path";
import { migrateDiff } from "./prisma6.ts";
import { SCHEMA_PATH, type Provider } from "./prisma-schemas.ts";
import { migrationsDir } from "../lib/server/migration-files.ts";

const root = process.cwd();
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:new-migration -- NAME   (NAME: lower-case letters, digits, _)");
  process.exit(2);
}

const schema = fs.readFileSync(SCHEMA_PATH, "utf8");
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
for (const provider of ["sqlite", "postgresql"] as Provider[]) {
  const dir = migrationsDir(provider);
  const snapshotPath = path.join(dir, "schema.snapshot.prisma");
  const from = fs.existsSync(snapshotPath) ? { schema: fs.readFileSync(snapshotPath, "utf8") } : {};
  const sql = migrateDiff(provider, from, schema);
  if (!sql) {
    console.log(`${provider}: ${path.relative(root, dir)} is up to date with prisma/schema.prisma; nothing written.`);
    continue;
  }
  const folder = path.join(dir, `${stamp}_${name}`);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, "migration.sql"), sql);
  fs.copyFileSync(SCHEMA_PATH, snapshotPath);
  fs.writeFileSync(path.join(dir, "migration_lock.toml"), `provider = "${provider}"\n`);
  console.log(`${provider}: wrote ${path.relative(root, folder)}/migration.sql; it is applied at the next start (or npm run db:migrate).`);
}
