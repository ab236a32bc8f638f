/**
 * Prisma 6.19's `migrate diff` for either provider, offline: its wasm schema engine works through a
 * driver adapter (Prisma 7's CLI needs a native engine that cannot be downloaded here). Used by
 * `npm run db:new-migration` (schema to schema, no database needed) and by the drift test
 * (migrations folder to schema, through a throwaway shadow database).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { schemaFor, type Provider } from "./prisma-schemas.ts";

const root = process.cwd();
const modules = path.join(root, "node_modules");

/** The server the PostgreSQL shadow databases are made on (trust auth on the project's machines). */
export const POSTGRES_ADMIN_URL = process.env.CEREAL_POSTGRES_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Prisma 6 wants a url in the datasource and a prisma-client-js generator with the client engine. */
function forPrisma6(schema: string): string {
  const body = schema
    .replace(/generator\s+\w+\s*\{[^}]*\}/g, "")
    .replace(/datasource\s+db\s*\{([^}]*)\}/, (_m, inner: string) => `datasource db {${inner}  url = "file:./unused.db"\n}`);
  return `generator client {\n  provider   = "prisma-client-js"\n  engineType = "client"\n}\n${body}`;
}

function adapterConfig(provider: Provider, work: string): string {
  if (provider === "sqlite") {
    // Prisma 6.19 sends each migration file to the shadow database as one executeRaw, which
    // better-sqlite3 refuses for more than one statement: run those as a script.
    return `import { PrismaBetterSqlite3 } from ${JSON.stringify(path.join(modules, "@prisma/adapter-better-sqlite3/dist/index.mjs"))};
export default { experimental: { adapter: true }, engine: "js",
  adapter: async () => {
    const base = new PrismaBetterSqlite3({ url: "file:" + ${JSON.stringify(path.join(work, "unused.db"))} });
    return {
      provider: base.provider,
      adapterName: base.adapterName,
      connect: () => base.connect(),
      async connectToShadowDb() {
        const adapter = await base.connectToShadowDb();
        const executeRaw = adapter.executeRaw.bind(adapter);
        adapter.executeRaw = async (query) => (query.args.length ? executeRaw(query) : (await adapter.executeScript(query.sql), 0));
        return adapter;
      },
    };
  } };\n`;
  }
  // Two work-arounds for Prisma 6.19 on pg: the adapter cannot read the catalogue's "char" columns
  // (oid 18; read as text here), and its own shadow database is dropped while still connected.
  return `import { randomUUID } from "node:crypto";
import pg from ${JSON.stringify(path.join(modules, "pg/lib/index.js"))};
import { PrismaPg } from ${JSON.stringify(path.join(modules, "@prisma/adapter-pg/dist/index.mjs"))};
class Pool extends pg.Pool {
  async query(...args) {
    const result = await super.query(...args);
    for (const field of result?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  }
}
const admin = ${JSON.stringify(POSTGRES_ADMIN_URL)};
async function run(sql) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try { await client.query(sql); } finally { await client.end(); }
}
export default { experimental: { adapter: true }, engine: "js",
  adapter: async () => {
    const base = new PrismaPg(new Pool({ connectionString: admin }));
    return {
      provider: base.provider,
      adapterName: base.adapterName,
      connect: () => base.connect(),
      async connectToShadowDb() {
        const database = "cereal_shadow_" + randomUUID().replace(/-/g, "");
        await run('CREATE DATABASE "' + database + '"');
        const url = new URL(admin);
        url.pathname = "/" + database;
        const pool = new Pool({ connectionString: url.toString() });
        const adapter = await new PrismaPg(pool).connect();
        const dispose = adapter.dispose.bind(adapter);
        adapter.dispose = async () => { await dispose(); await pool.end(); await run('DROP DATABASE "' + database + '"'); };
        return adapter;
      },
    };
  } };\n`;
}

export interface DiffSource {
  /** a schema in prisma/schema.prisma's form (SQLite provider); it is derived for the provider */
  schema?: string;
  /** a committed migrations folder, applied to a shadow database */
  migrations?: string;
}

/** `migrate diff --script` from `from` (nothing when empty) to the schema text `to`; returns the SQL, or "" when there is no difference. */
export function migrateDiff(provider: Provider, from: DiffSource, to: string): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-prisma6-"));
  try {
    fs.writeFileSync(path.join(work, "prisma.config.mjs"), adapterConfig(provider, work));
    fs.writeFileSync(path.join(work, "schema.prisma"), forPrisma6(schemaFor(provider, to)));
    let fromArgs = ["--from-empty"];
    if (from.schema !== undefined) {
      fs.writeFileSync(path.join(work, "from.prisma"), forPrisma6(schemaFor(provider, from.schema)));
      fromArgs = ["--from-schema-datamodel", path.join(work, "from.prisma")];
    } else if (from.migrations !== undefined) {
      fromArgs = ["--from-migrations", from.migrations];
    }
    const result = spawnSync(
      process.execPath,
      [path.join(modules, "prisma6/build/index.js"), "migrate", "diff", ...fromArgs, "--to-schema-datamodel", path.join(work, "schema.prisma"), "--script"],
      { cwd: work, encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(`prisma migrate diff (${provider}) failed:\n${result.stderr}${result.stdout}`);
    // The CLI prints its config banner on stdout too.
    const sql = result.stdout.replace(/^Loaded Prisma config.*\n+/m, "");
    return /This is an empty migration/.test(sql) ? "" : sql;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
