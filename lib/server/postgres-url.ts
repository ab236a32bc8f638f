import type { PoolConfig } from "pg";

/**
 * A PostgreSQL DATABASE_URL as the pg driver takes it. `?schema=NAME` (Prisma's convention) picks
 * the schema the tables live in; the default is public. Every connection of ours sets its
 * search_path to it, so raw SQL and the migration runner see the same tables as Prisma.
 */
export interface PostgresTarget {
  pool: PoolConfig;
  schema: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export function postgresTarget(url: string): PostgresTarget {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? "public";
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`DATABASE_URL names the schema "${schema}": use lower-case letters, digits and _ (for example ?schema=cereal)`);
  }
  parsed.searchParams.delete("schema");
  return { pool: { connectionString: parsed.toString(), options: `-c search_path=${schema}` }, schema };
}

/** pg-boss's tables (jobs/pg-boss.ts) live beside ours: schema `pgboss`, or `<schema>_pgboss` for a DATABASE_URL with ?schema= (each test file its own). */
export function pgBossSchema(url: string): string {
  const { schema } = postgresTarget(url);
  return schema === "public" ? "pgboss" : `${schema}_pgboss`;
}
