import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/lib/generated/prisma/client";
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
