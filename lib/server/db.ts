import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";
import { serverConfig } from "./config";

/**
 * The one Prisma client of a process, on the better-sqlite3 driver adapter. The busy timeout lets
 * the web server and the worker share the file (WAL mode is set when the database is migrated).
 */
const globalForDb = globalThis as unknown as { cerealDb?: PrismaClient; cerealDbPath?: string };

export function db(): PrismaClient {
  const { databasePath } = serverConfig();
  if (!globalForDb.cerealDb || globalForDb.cerealDbPath !== databasePath) {
    const adapter = new PrismaBetterSqlite3({ url: `file:${databasePath}`, timeout: 10_000 });
    globalForDb.cerealDb = new PrismaClient({ adapter });
    globalForDb.cerealDbPath = databasePath;
  }
  return globalForDb.cerealDb;
}

export type Tx = Prisma.TransactionClient;

/**
 * An interactive transaction, retried when SQLite reports the database busy: the web server and
 * the worker write the same file, and a transaction that read before the other one committed
 * cannot upgrade to a write (SQLITE_BUSY_SNAPSHOT); running it again from the start is correct.
 */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db().$transaction(fn, { maxWait: 20_000, timeout: 60_000 });
    } catch (error) {
      if (attempt >= 6 || !isBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    }
  }
}

function isBusy(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "P1008" || /SQLITE_BUSY|database is locked|Socket timeout/i.test(e?.message ?? "");
}
