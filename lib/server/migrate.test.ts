import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ESTIMATORS } from "@/lib/cereal/method/estimators";
import { listMigrations, migrateDatabase } from "./migrate";

/** A database migrated up to, not including, the committed migration whose name ends in `suffix` (returned as `upgrade`). */
function databaseBefore(suffix: string) {
  const names = listMigrations();
  const upgrade = names.find((n) => n.endsWith(suffix))!;
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-mig-"));
  for (const name of names.slice(0, names.indexOf(upgrade))) fs.cpSync(path.join("prisma/migrations", name), path.join(before, name), { recursive: true });
  const file = path.join(before, "db.sqlite");
  migrateDatabase(file, before);
  return { names, upgrade, file };
}

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

  it("upgrades existing projects to the design setting: each keeps the design its acquisition implied", () => {
    const { names, upgrade, file } = databaseBefore("_recommended_hardnmi_proportional");
    const db = new Database(file);
    const insert = db.prepare(`INSERT INTO "Project" (id, name, dataPath, bundleName, n, d, acquisition, updatedAt) VALUES (?, ?, ?, 'b', 10, 2, ?, CURRENT_TIMESTAMP)`);
    for (const [id, acquisition] of [["p1", "random"], ["p2", "hardnmi"], ["p3", "crossentropy"], ["p4", "bald"]]) insert.run(id, id, `/${id}`, acquisition);
    db.close();
    expect(migrateDatabase(file).applied).toEqual(names.slice(names.indexOf(upgrade)));
    const after = new Database(file);
    // ... and the FixMatch steps it had (later migrations change only the default)
    expect(after.prepare(`SELECT id, design, fixmatchSteps FROM "Project" ORDER BY id`).all()).toEqual([
      { id: "p1", design: "uniform", fixmatchSteps: 512 },
      { id: "p2", design: "top-score", fixmatchSteps: 512 },
      { id: "p3", design: "proportional", fixmatchSteps: 512 },
      { id: "p4", design: "top-score", fixmatchSteps: 512 },
    ]);
    // the recommended configuration is no schema default any more: a new project gets it in code
    // (project-settings.test.ts), so a row without it is refused while the rows above kept theirs
    expect(() =>
      after.prepare(`INSERT INTO "Project" (id, name, dataPath, bundleName, n, d, updatedAt) VALUES ('p5', 'p5', '/p5', 'b', 10, 2, CURRENT_TIMESTAMP)`).run(),
    ).toThrow(/NOT NULL constraint failed: Project\.acquisition/);
    after.close();
  });

  it("upgrades existing projects to the pair design setting: each keeps the pair design its acquisition implied", () => {
    const { names, upgrade, file } = databaseBefore("_pair_design_settings");
    const db = new Database(file);
    const insert = db.prepare(
      `INSERT INTO "Project" (id, name, dataPath, bundleName, n, d, mode, acquisition, design, estimator, fixmatch, fixmatchSteps, updatedAt) VALUES (?, ?, ?, 'b', 10, 2, 'pairwise', ?, 'uniform', 'guarded', 1, 1024, CURRENT_TIMESTAMP)`,
    );
    for (const [id, acquisition] of [["p1", "hardnmi"], ["p2", "maxentropy"], ["p3", "bald"], ["p4", "crossentropy"], ["p5", "random"]]) insert.run(id, id, `/${id}`, acquisition);
    db.close();
    expect(migrateDatabase(file).applied).toEqual(names.slice(names.indexOf(upgrade)));
    const after = new Database(file);
    expect(after.prepare(`SELECT id, pairDesign, pairUniformShare FROM "Project" ORDER BY id`).all()).toEqual([
      { id: "p1", pairDesign: "random", pairUniformShare: 0.5 },
      { id: "p2", pairDesign: "uncertain", pairUniformShare: 0.5 },
      { id: "p3", pairDesign: "uncertain", pairUniformShare: 0.5 },
      { id: "p4", pairDesign: "anchor", pairUniformShare: 0.5 },
      { id: "p5", pairDesign: "random", pairUniformShare: 0.5 },
    ]);
    after.close();
  });

  it("upgrades a project mid-batch to stages: a batch partly filled with overflow is complete as it is", () => {
    const { upgrade, file } = databaseBefore("_stages");
    const db = new Database(file);
    db.prepare(`INSERT INTO "Project" (id, name, dataPath, bundleName, n, d, acquisition, design, estimator, fixmatch, fixmatchSteps, updatedAt) VALUES ('p', 'p', '/p', 'b', 100, 2, 'hardnmi', 'proportional', 'guarded', 1, 1024, CURRENT_TIMESTAMP)`).run();
    const batch = db.prepare(`INSERT INTO "Batch" (id, projectId, "index", drawnByRoundIndex, size) VALUES (?, 'p', ?, ?, ?)`);
    batch.run("b0", 0, null, 20);
    // batch 1: round 0 is still training; three overflow tasks were drawn into it meanwhile
    batch.run("b1", 1, null, 10);
    const task = db.prepare(`INSERT INTO "Task" (id, projectId, batchId, itemIndex, design, q, drawOrder, overflow, done) VALUES (?, 'p', ?, ?, 'uniform', 0.2, ?, ?, ?)`);
    for (let i = 0; i < 20; i++) task.run(`t${i}`, "b0", i, i, 0, 1);
    for (let i = 20; i < 23; i++) task.run(`t${i}`, "b1", i, i, 1, 0);
    db.close();
    expect(migrateDatabase(file).applied[0]).toBe(upgrade);
    const after = new Database(file);
    expect(after.prepare(`SELECT "index", size, design, eps, poolSize, evidence FROM "Batch" ORDER BY "index"`).all()).toEqual([
      { index: 0, size: 20, design: null, eps: null, poolSize: null, evidence: null },
      { index: 1, size: 3, design: null, eps: null, poolSize: null, evidence: null },
    ]);
    after.close();
  });

  it("renames a project's retired estimator to the name the same estimator has now, and leaves the others", () => {
    const { names, upgrade, file } = databaseBefore("_retired_estimator_names");
    const db = new Database(file);
    const insert = db.prepare(
      `INSERT INTO "Project" (id, name, dataPath, bundleName, n, d, acquisition, design, estimator, fixmatch, fixmatchSteps, updatedAt) VALUES (?, ?, ?, 'b', 10, 2, 'hardnmi', 'proportional', ?, 1, 1024, CURRENT_TIMESTAMP)`,
    );
    for (const [id, estimator] of [["p1", "guarded-mean-plentiful"], ["p2", "guarded-linear-plentiful"], ["p3", "ppi"]]) insert.run(id, id, `/${id}`, estimator);
    db.close();
    expect(migrateDatabase(file).applied).toEqual(names.slice(names.indexOf(upgrade)));
    const after = new Database(file);
    const estimators = after.prepare(`SELECT id, estimator FROM "Project" ORDER BY id`).all() as { id: string; estimator: string }[];
    expect(estimators).toEqual([
      { id: "p1", estimator: "guarded" },
      { id: "p2", estimator: "guarded-linear-plentiful" },
      { id: "p3", estimator: "ppi" },
    ]);
    // every name left is one the registry knows (the settings page lists them)
    for (const { estimator } of estimators) expect(Object.keys(ESTIMATORS)).toContain(estimator);
    after.close();
  });

  it("keeps every project's rows through a migration that rebuilds a parent table (foreign keys are off while migrations run)", () => {
    const { upgrade: rebuild, file } = databaseBefore("_recommended_configuration_in_code");
    expect(fs.readFileSync(path.join("prisma/migrations", rebuild, "migration.sql"), "utf8")).toMatch(/DROP TABLE "Project"/);
    const db = new Database(file);
    db.prepare(`INSERT INTO "Project" (id, name, dataPath, bundleName, n, d, updatedAt) VALUES ('p', 'p', '/p', 'b', 100, 2, CURRENT_TIMESTAMP)`).run();
    db.prepare(`INSERT INTO "Batch" (id, projectId, "index", size) VALUES ('b0', 'p', 0, 1)`).run();
    db.prepare(`INSERT INTO "Task" (id, projectId, batchId, itemIndex, design, q, drawOrder) VALUES ('t0', 'p', 'b0', 3, 'uniform', 0.01, 0)`).run();
    db.close();
    migrateDatabase(file);
    const after = new Database(file);
    expect(after.prepare(`SELECT id FROM "Batch"`).all()).toEqual([{ id: "b0" }]);
    expect(after.prepare(`SELECT id, itemIndex FROM "Task"`).all()).toEqual([{ id: "t0", itemIndex: 3 }]);
    expect(after.pragma("foreign_keys", { simple: true })).toBe(1);
    after.close();
  });

  it("refuses a migration that leaves a row pointing nowhere, and applies none", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-mig-"));
    fs.mkdirSync(path.join(dir, "001_tables"));
    fs.writeFileSync(path.join(dir, "001_tables", "migration.sql"), "CREATE TABLE p (id TEXT PRIMARY KEY); CREATE TABLE c (id TEXT PRIMARY KEY, pid TEXT REFERENCES p(id) ON DELETE CASCADE);");
    fs.mkdirSync(path.join(dir, "002_orphan"));
    fs.writeFileSync(path.join(dir, "002_orphan", "migration.sql"), "INSERT INTO c VALUES ('c1', 'missing');");
    const file = path.join(dir, "db.sqlite");
    expect(() => migrateDatabase(file, dir)).toThrow(/foreign key check failed: table c/);
    const db = new Database(file);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('p', 'c')`).all()).toEqual([]);
    db.close();
  });

  it("rolls back every pending migration when one fails, naming it, and leaves them to apply again", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-mig-"));
    fs.mkdirSync(path.join(dir, "001_ok"));
    fs.writeFileSync(path.join(dir, "001_ok", "migration.sql"), "CREATE TABLE a (x INTEGER);");
    fs.mkdirSync(path.join(dir, "002_bad"));
    fs.writeFileSync(path.join(dir, "002_bad", "migration.sql"), "CREATE TABLE b (x INTEGER); INSERT INTO nope VALUES (1);");
    const file = path.join(dir, "db.sqlite");
    expect(() => migrateDatabase(file, dir)).toThrow(/migration 002_bad failed: no such table: nope/);
    const db = new Database(file);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('a', 'b')`).all()).toEqual([]);
    expect(db.prepare(`SELECT migration_name FROM "_prisma_migrations"`).all()).toEqual([]);
    db.close();
    fs.writeFileSync(path.join(dir, "002_bad", "migration.sql"), "CREATE TABLE b (x INTEGER);");
    expect(migrateDatabase(file, dir).applied).toEqual(["001_ok", "002_bad"]);
  });
});
