import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { listMigrations, migrateDatabase } from "./migrate";

describe("migrations", () => {
  it("applies every committed migration once, records it like Prisma, and turns on WAL", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cereal-mig-")), "a.db");
    const first = migrateDatabase(file);
    expect(first.applied).toEqual(listMigrations());
    expect(first.applied.length).toBeGreaterThan(0);
    expect(migrateDatabase(file).applied).toEqual([]);
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    const rows = db.prepare(`SELECT migration_name, checksum FROM "_prisma_migrations"`).all() as { checksum: string }[];
    expect(rows).toHaveLength(first.applied.length);
    expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'User'`).get()).toBeTruthy();
    db.close();
  });

  it("rolls back a migration that fails, leaving it to apply again", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-mig-"));
    fs.mkdirSync(path.join(dir, "001_ok"));
    fs.writeFileSync(path.join(dir, "001_ok", "migration.sql"), "CREATE TABLE a (x INTEGER);");
    fs.mkdirSync(path.join(dir, "002_bad"));
    fs.writeFileSync(path.join(dir, "002_bad", "migration.sql"), "CREATE TABLE b (x INTEGER); INSERT INTO nope VALUES (1);");
    const file = path.join(dir, "db.sqlite");
    expect(() => migrateDatabase(file, dir)).toThrow(/nope/);
    const db = new Database(file);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'b'`).get()).toBeUndefined();
    expect(db.prepare(`SELECT migration_name FROM "_prisma_migrations"`).all()).toEqual([{ migration_name: "001_ok" }]);
    db.close();
  });
});
