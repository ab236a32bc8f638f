import type { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type Database from "better-sqlite3";

/**
 * Prepared statements kept per SQL text for Prisma's better-sqlite3 adapter. The adapter prepares
 * every query anew (`prepare(sql).bind(args)`), which took 4.9 s of the web process over a
 * 120-second team bench (issue #18): Prisma sends the same few dozen SQL texts over and over.
 * `withStatementCache` wraps the adapter factory so that its connection's `prepare` returns a
 * cached statement (least recently used out beyond `size`); since better-sqlite3 binds parameters
 * to a statement for good, `bind` hands back a view that passes them to each call instead.
 * SQLite re-prepares a cached statement by itself after a schema change.
 */
export function withStatementCache(factory: PrismaBetterSqlite3, size = 500): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const database = (adapter as typeof adapter & { client?: Database.Database }).client;
    // the adapter keeps its connection in `client`; a version that does not just goes uncached
    if (database && typeof database.prepare === "function") cacheStatements(database, size);
    return adapter;
  };
  return factory;
}

/** Makes `database.prepare` return cached statements; returns the cache (what the tests look at). */
export function cacheStatements(database: Database.Database, size = 500): Map<string, Database.Statement> {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, Database.Statement>();
  database.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (statement) cache.delete(sql); // re-inserted below: the Map's order is the recency order
    else statement = prepare(sql);
    cache.set(sql, statement);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return reusable(statement);
  }) as Database.Database["prepare"];
  return cache;
}

/** The statement as the adapter uses it, with `bind(...params)` giving a view that passes them to every call. */
function reusable(statement: Database.Statement): Database.Statement {
  return new Proxy(statement, {
    get(target, key) {
      if (key === "bind") {
        return (...params: unknown[]) => {
          // a shared statement may have been left in raw mode by its previous use
          if (target.reader) target.raw(false);
          return bound(target, params);
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const EXECUTE = new Set<PropertyKey>(["run", "get", "all", "iterate"]);
const MODE = new Set<PropertyKey>(["raw", "pluck", "expand", "safeIntegers"]);

function bound(statement: Database.Statement, params: unknown[]): Database.Statement {
  const view: Database.Statement = new Proxy(statement, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (EXECUTE.has(key)) return () => value.apply(target, params);
      if (MODE.has(key)) {
        return (...args: unknown[]) => {
          value.apply(target, args);
          return view;
        };
      }
      if (key === "bind") return () => {
        throw new TypeError("The bind() method can only be invoked once per statement object");
      };
      return value.bind(target);
    },
  });
  return view;
}
