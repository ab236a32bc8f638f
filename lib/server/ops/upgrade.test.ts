import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { listMigrations } from "../migrate";
import { databaseLevel, KEPT_COPIES, upgradeDatabase, UpgradeError, upgradeOrExit } from "./upgrade";

/** A migrations folder with every committed migration but the newest, and a database at that level holding one user. */
function appAtPreviousLevel() {
  const names = listMigrations();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-upgrade-"));
  const migrations = path.join(dir, "migrations");
  for (const name of names.slice(0, -1)) fs.cpSync(path.join("prisma/migrations", name), path.join(migrations, name), { recursive: true });
  const file = path.join(dir, "cereal.db");
  expect(upgradeDatabase(file, { dir: migrations })).toEqual({ applied: names.slice(0, -1), copy: null });
  const db = new Database(file);
  db.prepare(`INSERT INTO "User" (id, email, name, role, passwordHash, updatedAt) VALUES ('u1', 'a@b.c', 'A', 'ADMIN', 'x', CURRENT_TIMESTAMP)`).run();
  db.close();
  return { names, dir, migrations, file };
}

/** Everything a migration could change: the schema, the migration history, the rows of every table. */
function contents(file: string) {
  const db = new Database(file, { readonly: true });
  const tables = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name`).all() as { name: string; sql: string | null }[];
  const rows = Object.fromEntries(
    tables.filter((t) => t.sql?.startsWith("CREATE TABLE")).map((t) => [t.name, db.prepare(`SELECT * FROM "${t.name}" ORDER BY rowid`).all()]),
  );
  db.close();
  return { tables, rows };
}

describe("safe upgrades", () => {
  it("keeps a copy beside the database before migrating, the last few of them", () => {
    const { names, migrations, file } = appAtPreviousLevel();
    fs.cpSync(path.join("prisma/migrations", names.at(-1)!), path.join(migrations, names.at(-1)!), { recursive: true });
    const result = upgradeDatabase(file, { dir: migrations, now: new Date("2026-12-01T10:00:00Z") });
    expect(result).toEqual({ applied: names.slice(-1), copy: `${file}.pre-upgrade-20261201T100000Z` });
    expect(databaseLevel(result.copy!, migrations)).toEqual({ applied: names.slice(0, -1), pending: names.slice(-1) });
    expect(contents(result.copy!).rows.User).toHaveLength(1);
    expect(upgradeDatabase(file, { dir: migrations })).toEqual({ applied: [], copy: null });

    for (let day = 2; day <= 5; day++) {
      const extra = path.join(migrations, `2099010${day}000000_extra_${day}`);
      fs.mkdirSync(extra);
      fs.writeFileSync(path.join(extra, "migration.sql"), `CREATE TABLE "Extra${day}" (x INTEGER);`);
      upgradeDatabase(file, { dir: migrations, now: new Date(`2026-12-0${day}T10:00:00Z`) });
    }
    const copies = fs.readdirSync(path.dirname(file)).filter((f) => f.includes(".pre-upgrade-"));
    expect(copies).toEqual(["03", "04", "05"].map((d) => `cereal.db.pre-upgrade-202612${d}T100000Z`));
    expect(copies).toHaveLength(KEPT_COPIES);
  });

  it("leaves the database untouched when a migration fails, and start stops with the error and how to roll back", () => {
    const { names, migrations, file } = appAtPreviousLevel();
    fs.cpSync(path.join("prisma/migrations", names.at(-1)!), path.join(migrations, names.at(-1)!), { recursive: true });
    const broken = path.join(migrations, "20990101000000_broken");
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, "migration.sql"), `CREATE TABLE "Half" (x INTEGER); UPDATE "NoSuchTable" SET x = 1;`);
    const before = contents(file);

    let thrown: unknown;
    try {
      upgradeDatabase(file, { dir: migrations });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UpgradeError);
    const message = (thrown as Error).message;
    expect(message).toMatch(/migration 20990101000000_broken failed: no such table: NoSuchTable/);
    expect(message).toContain(`${file} is as it was (migration level ${names.at(-2)})`);
    expect(message).toMatch(/To roll back, run the previous version/);
    const copy = /copy taken before the attempt is at (\S+);/.exec(message)![1];
    expect(contents(copy)).toEqual(before);
    // neither the newest real migration nor the first half of the broken one was applied
    expect(contents(file)).toEqual(before);
    expect(databaseLevel(file, migrations).pending).toEqual([names.at(-1), "20990101000000_broken"]);

    const printed: string[] = [];
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const exit = vi.fn((code: number): never => {
      throw new Error(`exit ${code}`);
    });
    expect(() => upgradeOrExit(file, (line) => printed.push(line), exit, migrations)).toThrow("exit 1");
    expect(exit).toHaveBeenCalledWith(1);
    expect(errors.mock.calls[0][0]).toMatch(/the app was not started\.\nTo roll back/);
    expect(printed).toEqual([]);
    errors.mockRestore();
    expect(contents(file)).toEqual(before);
  });
});
