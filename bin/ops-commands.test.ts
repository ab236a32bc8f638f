import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { listMigrations } from "@/lib/server/migrate";
import { createTestUser } from "@/lib/server/http/test-requests";
import { runThisFileOnSqlite } from "@/lib/server/test-postgresql";
import { runBackup, runRestore } from "./ops-commands";
import { CommandError } from "./project-commands";

// backups copy the SQLite file; on PostgreSQL they refuse (lib/server/ops/backup.test.ts)
runThisFileOnSqlite();
const home = process.env.CEREAL_DATA_DIR!;
afterEach(() => void (process.env.CEREAL_DATA_DIR = home));

describe("cereal backup and restore", () => {
  it("needs --out and one archive", async () => {
    await expect(runBackup([])).rejects.toThrow(CommandError);
    await expect(runRestore([])).rejects.toThrow(/restore takes one archive file/);
  });

  it("backs up the configured data folder and restores it into another, saying what it did", async () => {
    const user = await createTestUser("RESEARCHER");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-cli-"));
    const printed: string[] = [];
    const manifest = await runBackup(["--out", path.join(dir, "a.tar.gz")], (line) => printed.push(line));
    expect(printed[0]).toMatch(new RegExp(`^backed up ${home} to ${dir}/a\\.tar\\.gz in [\\d.]+ s: 1 files, .* migration level ${listMigrations().at(-1)}$`));
    expect(manifest.files.map((f) => f.path)).toEqual(["database/cereal.db"]);

    process.env.CEREAL_DATA_DIR = path.join(dir, "restored");
    await runRestore([path.join(dir, "a.tar.gz")], (line) => printed.push(line));
    expect(printed.slice(1)).toEqual([
      `restored 1 files (made ${manifest.createdAt} by ${manifest.app}) into ${dir}/restored; every checksum matched`,
      "the database is at this version's migration level",
    ]);
    expect(await db().user.findUnique({ where: { id: user.id } })).toMatchObject({ email: user.email });
  });
});
