/**
 * prisma/schema.prisma is the one schema we edit; it names the SQLite provider. The PostgreSQL
 * schema is derived from it here (same models, another provider and client folder), never edited
 * by hand: `npm run prisma:generate` writes it to lib/generated/ and generates both clients,
 * `npm run db:new-migration` diffs both, and bin/migration-drift.test.ts checks both migration folders.
 */
import fs from "node:fs";
import path from "node:path";

import type { DatabaseProvider } from "../lib/server/migration-files.ts";

export type Provider = DatabaseProvider;

export const SCHEMA_PATH = path.join(process.cwd(), "prisma", "schema.prisma");
/** Where the derived PostgreSQL schema is written (ignored by git, like the generated clients). */
export const POSTGRESQL_SCHEMA_PATH = path.join(process.cwd(), "lib", "generated", "postgresql.prisma");

/** The schema text for a provider: the SQLite schema as is, or the PostgreSQL one derived from it. */
export function schemaFor(provider: Provider, sqliteSchema = fs.readFileSync(SCHEMA_PATH, "utf8")): string {
  if (provider === "sqlite") return sqliteSchema;
  const datasource = /(datasource\s+db\s*\{[^}]*provider\s*=\s*)"sqlite"/;
  const output = /(generator\s+client\s*\{[^}]*output\s*=\s*)"\.\.\/lib\/generated\/prisma"/;
  if (!datasource.test(sqliteSchema) || !output.test(sqliteSchema)) {
    throw new Error(`${SCHEMA_PATH} must keep provider = "sqlite" and output = "../lib/generated/prisma": the PostgreSQL schema is derived by replacing them`);
  }
  return sqliteSchema.replace(datasource, '$1"postgresql"').replace(output, '$1"./prisma-postgresql"');
}

/** Writes the derived PostgreSQL schema; returns its path. */
export function writePostgresqlSchema(): string {
  fs.mkdirSync(path.dirname(POSTGRESQL_SCHEMA_PATH), { recursive: true });
  fs.writeFileSync(POSTGRESQL_SCHEMA_PATH, schemaFor("postgresql"));
  return POSTGRESQL_SCHEMA_PATH;
}
