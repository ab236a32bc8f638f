/**
 * `npm run db:new-migration -- NAME`: writes prisma/migrations/<timestamp>_NAME/migration.sql with
 * the SQL that takes the database from the last migration's schema to prisma/schema.prisma.
 *
 * Works offline: the SQL comes from Prisma 6.19's wasm schema engine (`prisma6` in
 * devDependencies; Prisma 7's CLI needs a native engine that cannot be downloaded here).
 * prisma/migrations/schema.snapshot.prisma is the schema as of the newest migration.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = process.cwd();
const schemaPath = path.join(root, "prisma", "schema.prisma");
const migrationsDir = path.join(root, "prisma", "migrations");
const snapshotPath = path.join(migrationsDir, "schema.snapshot.prisma");

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:new-migration -- NAME   (NAME: lower-case letters, digits, _)");
  process.exit(2);
}

/** Prisma 6 wants a url in the datasource and a prisma-client-js generator with the client engine. */
function forPrisma6(schema: string): string {
  const body = schema
    .replace(/generator\s+\w+\s*\{[^}]*\}/g, "")
    .replace(/datasource\s+db\s*\{([^}]*)\}/, (_m, inner: string) => `datasource db {${inner}  url = "file:./unused.db"\n}`);
  return `generator client {\n  provider   = "prisma-client-js"\n  engineType = "client"\n}\n${body}`;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-migration-"));
try {
  const adapter = path.join(root, "node_modules/@prisma/adapter-better-sqlite3/dist/index.mjs");
  fs.writeFileSync(
    path.join(work, "prisma.config.mjs"),
    `import { PrismaBetterSqlite3 } from ${JSON.stringify(adapter)};
export default { experimental: { adapter: true }, engine: "js",
  adapter: async () => new PrismaBetterSqlite3({ url: "file:" + ${JSON.stringify(path.join(work, "unused.db"))} }) };\n`,
  );
  fs.writeFileSync(path.join(work, "schema.prisma"), forPrisma6(fs.readFileSync(schemaPath, "utf8")));
  const from = fs.existsSync(snapshotPath) ? ["--from-schema-datamodel", path.join(work, "from.prisma")] : ["--from-empty"];
  if (fs.existsSync(snapshotPath)) fs.writeFileSync(path.join(work, "from.prisma"), forPrisma6(fs.readFileSync(snapshotPath, "utf8")));
  const output = execFileSync(
    process.execPath,
    [path.join(root, "node_modules/prisma6/build/index.js"), "migrate", "diff", ...from, "--to-schema-datamodel", path.join(work, "schema.prisma"), "--script"],
    { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  // The CLI prints its config banner on stdout too.
  const sql = output.replace(/^Loaded Prisma config.*\n+/m, "");
  if (/This is an empty migration/.test(sql)) {
    console.log("prisma/schema.prisma has no change since the last migration: nothing written.");
    process.exit(0);
  }
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const dir = path.join(migrationsDir, `${stamp}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), sql);
  fs.copyFileSync(schemaPath, snapshotPath);
  fs.writeFileSync(path.join(migrationsDir, "migration_lock.toml"), 'provider = "sqlite"\n');
  console.log(`wrote ${path.relative(root, dir)}/migration.sql; it is applied at the next start (or npm run db:migrate).`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
