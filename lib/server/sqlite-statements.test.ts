import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { db } from "./db";
import { cacheStatements, withStatementCache } from "./sqlite-statements";

/** An in-memory database whose real `prepare` calls are counted, then cached. */
function counted(size?: number) {
  const database = new Database(":memory:");
  database.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
  const prepares: string[] = [];
  const prepare = database.prepare.bind(database);
  database.prepare = ((sql: string) => {
    prepares.push(sql);
    return prepare(sql);
  }) as Database.Database["prepare"];
  const cache = cacheStatements(database, size);
  return { database, prepares, cache };
}

describe("the SQLite statement cache", () => {
  it("prepares each SQL text once and runs it with each call's own parameters, as the Prisma adapter calls it", () => {
    const { database, prepares } = counted();
    const insert = "INSERT INTO t (id, name) VALUES (?, ?)";
    for (const [id, name] of [[1, "a"], [2, "b"], [3, "c"]] as const) expect(database.prepare(insert).bind([id, name]).run().changes).toBe(1);
    const select = "SELECT id, name FROM t WHERE id >= ? ORDER BY id";
    const read = (from: number) => {
      const statement = database.prepare(select).bind([from]);
      expect(statement.reader).toBe(true);
      expect(statement.columns().map((c) => c.name)).toEqual(["id", "name"]);
      return statement.raw().all();
    };
    expect(read(2)).toEqual([[2, "b"], [3, "c"]]);
    expect(read(1)).toEqual([[1, "a"], [2, "b"], [3, "c"]]);
    expect(read(4)).toEqual([]);
    // a plain (not raw) use of the same text after a raw one gets objects again
    expect(database.prepare(select).bind([3]).all()).toEqual([{ id: 3, name: "c" }]);
    expect(prepares).toEqual([insert, select]);
    // a bound view, like a bound statement, cannot be bound again
    expect(() => database.prepare(select).bind([1]).bind([2])).toThrow(/only be invoked once/);
  });

  it("keeps the most recently used statements up to its size", () => {
    const { database, prepares, cache } = counted(2);
    const text = (n: number) => `SELECT ${n} AS n`;
    for (const n of [1, 2, 1, 3, 1, 2]) expect(database.prepare(text(n)).bind([]).get()).toEqual({ n });
    // 3 pushed out 2 (1 was used after 2); 2 came back and pushed out 3
    expect(prepares).toEqual([text(1), text(2), text(3), text(2)]);
    expect([...cache.keys()]).toEqual([text(1), text(2)]);
  });

  it("hooks into the adapter's connection (this adapter version keeps it in \`client\`)", async () => {
    const adapter = await withStatementCache(new PrismaBetterSqlite3({ url: ":memory:" })).connect();
    const query = { sql: "SELECT ? AS n", args: [1], argTypes: [{ scalarType: "int", arity: "scalar" }] } as unknown as Parameters<typeof adapter.queryRaw>[0];
    const database = (adapter as unknown as { client: Database.Database }).client;
    expect(database.prepare).not.toBe(Database.prototype.prepare);
    expect((await adapter.queryRaw(query)).rows).toEqual([[1]]);
    expect((await adapter.queryRaw({ ...query, args: [2] })).rows).toEqual([[2]]); // one statement, each call with its own parameters
    await adapter.dispose();
  });

  it("serves the app's Prisma client: the same query twice gives fresh results", async () => {
    const email = `cache-${Date.now()}@test`;
    const find = () => db().user.findMany({ where: { email }, select: { name: true } });
    expect(await find()).toEqual([]);
    await db().user.create({ data: { email, name: "first", role: "ANNOTATOR", passwordHash: "x" } });
    expect(await find()).toEqual([{ name: "first" }]);
    await db().user.update({ where: { email }, data: { name: "second" } });
    expect(await find()).toEqual([{ name: "second" }]);
  });
});
