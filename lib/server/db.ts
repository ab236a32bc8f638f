import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/prisma-postgresql/client";
import { serverConfig, type ServerConfig } from "./config";
import { postgresTarget } from "./postgres-url";
import { withStatementCache } from "./sqlite-statements";

/**
 * The one Prisma client of a process: SQLite (better-sqlite3 adapter) by default, PostgreSQL
 * (pg adapter) when DATABASE_URL is postgresql://. Both clients are generated from
 * prisma/schema.prisma (bin/prisma-generate.ts), so they have the same models and queries; the
 * code is typed against the SQLite one, which keeps it to what both databases do.
 * On SQLite the busy timeout lets the web server and the worker share the file (WAL mode is set
 * when the database is migrated), and prepared statements are kept per SQL text (sqlite-statements.ts).
 */
const globalForDb = globalThis as unknown as { cerealDb?: PrismaClient; cerealDbKey?: string };

/**
 * "minimal" errors: with any other format Prisma builds an Error (a captured stack trace) on every
 * query, for the call site of a message that is never shown. It did so in `npm start`, whose client
 * is made before bin/start.ts sets NODE_ENV=production (Prisma's switch to minimal); issue #18.
 */
const ERROR_FORMAT = "minimal";

function createClient(config: ServerConfig): PrismaClient {
  if (config.postgresUrl) {
    const { pool, schema } = postgresTarget(config.postgresUrl);
    return new PostgresPrismaClient({ adapter: new PrismaPg(pool, { schema }), errorFormat: ERROR_FORMAT }) as unknown as PrismaClient;
  }
  return new PrismaClient({ adapter: withStatementCache(new PrismaBetterSqlite3({ url: `file:${config.databasePath}`, timeout: 10_000 })), errorFormat: ERROR_FORMAT });
}

export function db(): PrismaClient {
  const config = serverConfig();
  const key = config.postgresUrl ?? config.databasePath;
  if (!globalForDb.cerealDb || globalForDb.cerealDbKey !== key) {
    globalForDb.cerealDb = createClient(config);
    globalForDb.cerealDbKey = key;
  }
  return globalForDb.cerealDb;
}

export type Tx = Prisma.TransactionClient;

/**
 * An interactive transaction, run again from the start when the database refuses it for a
 * concurrent one: SQLite reports the file busy when a transaction that read before the other
 * one committed tries to write (SQLITE_BUSY_SNAPSHOT); PostgreSQL reports a deadlock or a
 * serialization failure (P2034). PostgreSQL runs it at READ COMMITTED: what must not interleave
 * takes `lockProject` first.
 */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db().$transaction(fn, { maxWait: 20_000, timeout: 60_000 });
    } catch (error) {
      if (attempt >= 6 || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    }
  }
}

function isRetryable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "P1008" || e?.code === "P2034" || /SQLITE_BUSY|database is locked|Socket timeout|deadlock detected|could not serialize/i.test(e?.message ?? "");
}

/**
 * Serialises, per project, the transactions that draw tasks or assign a unique order; call it
 * first in the transaction. On PostgreSQL a transaction-scoped advisory lock (released at commit
 * or rollback), so several web processes and workers never hand out the same task or number. On
 * SQLite, whose one write lock covers the whole file, it takes that lock now (a write statement
 * that touches no row), waiting for it under the busy timeout: a transaction that only read
 * first would be refused at its first write with SQLITE_BUSY_SNAPSHOT, without waiting, whenever
 * another process committed in between; with 50 annotators answering, the worker's round freeze
 * (read every settled task, then mark their labels) lost that race on every retry (issue #18 bench).
 */
export async function lockProject(tx: Tx, projectId: string): Promise<void> {
  if (serverConfig().postgresUrl) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${projectId}))`;
  else await tx.$executeRaw`UPDATE "Project" SET "name" = "name" WHERE 0`;
}

/** The PostgreSQL channel live events listen on (lib/server/live/project-listener.ts); the payload is a project id. */
export const PROJECT_CHANNEL = "cereal_project";

/**
 * Tells the live events that something a project's snapshot shows changed (a label stored or
 * withdrawn, a stage drawn, a round's state or progress): on PostgreSQL a NOTIFY on
 * PROJECT_CHANNEL, which inside a transaction goes out when it commits (and not at all on a
 * rollback), and which reaches every process LISTENing, the web processes from the worker's
 * too. On SQLite a no-op: there each web process polls its watched projects.
 */
export async function notifyProjectChanged(client: Tx | PrismaClient, projectId: string): Promise<void> {
  if (!serverConfig().postgresUrl) return;
  await client.$executeRaw`SELECT pg_notify(${PROJECT_CHANNEL}, ${projectId})`;
}
