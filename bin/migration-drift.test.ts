import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsDir, type DatabaseProvider } from "@/lib/server/migration-files";
import { migrateDiff } from "./prisma6";
import { SCHEMA_PATH } from "./prisma-schemas";

// The provider of this run: npm run test:unit checks SQLite's folder, npm run test:pg PostgreSQL's.
const provider: DatabaseProvider = process.env.CEREAL_TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";
const schema = fs.readFileSync(SCHEMA_PATH, "utf8");

describe(`the ${provider} migrations`, () => {
  it("build exactly prisma/schema.prisma: applied to a fresh database, nothing is left to diff", () => {
    expect(migrateDiff(provider, { migrations: migrationsDir(provider) }, schema)).toBe("");
  });

  it("are reported as drifted when the schema has a model they lack (npm run db:new-migration is missing)", () => {
    const mismatched = `${schema}\nmodel DriftProbe {\n  id String @id\n}\n`;
    expect(migrateDiff(provider, { migrations: migrationsDir(provider) }, mismatched)).toMatch(/CREATE TABLE "DriftProbe"/);
  });

  it("are reported as drifted when a migration is missing from the folder", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-drift-"));
    const names = fs.readdirSync(migrationsDir(provider));
    for (const name of names) fs.cpSync(path.join(migrationsDir(provider), name), path.join(dir, name), { recursive: true });
    // the newest migration that changes the schema (a data-only one, such as retired_estimator_names, leaves nothing to diff)
    const changesSchema = (name: string) => /\b(CREATE|ALTER|DROP)\b/.test(fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8"));
    const newest = names.filter((n) => /^\d{14}_/.test(n) && changesSchema(n)).sort().at(-1)!;
    fs.rmSync(path.join(dir, newest), { recursive: true });
    expect(migrateDiff(provider, { migrations: dir }, schema)).not.toBe("");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
