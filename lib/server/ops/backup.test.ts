import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKnnSurrogateFactory } from "@/lib/cereal/fakes/knn-surrogate";
import { db } from "../db";
import { exportLabels } from "../exports/exports";
import type { WorkerDeps } from "../jobs/definition";
import { runOneJob } from "../jobs/worker-loop";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { listMigrations, migrateDatabase } from "../migrate";
import { runThisFileOnSqlite } from "../test-postgresql";
import { estimateHistory } from "../project-data/estimate-history";
import { projectDir } from "../project-data/paths";
import type { SessionUser } from "../auth/session";
import { backupDataFolder } from "./backup";
import { restoreDataFolder } from "./restore";

// backups copy the SQLite file, so this file runs on SQLite in both suites; on PostgreSQL they refuse (last test)
runThisFileOnSqlite();
const home = process.env.CEREAL_DATA_DIR!;
const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), "cereal-ops-"));
/** Points this process (serverConfig, db()) at another data folder. */
const useDataDir = (dir: string) => (process.env.CEREAL_DATA_DIR = dir);

beforeEach(async () => {
  useDataDir(home);
  await db().job.deleteMany({});
});
afterEach(() => void useDataDir(home));

/** A round that holds in its surrogate until released: "while a round trains". */
function gatedRound() {
  let entered!: () => void;
  let release!: () => void;
  const training = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const knn = createKnnSurrogateFactory();
  const deps: WorkerDeps = {
    ...fastWorkerDeps,
    createSurrogate: async (embeddings, k) => {
      entered();
      await released;
      return knn(embeddings, k);
    },
  };
  return { deps, training, release };
}

/** What a lab would compare: the labels export, the estimate history, every round file's bytes. */
async function observable(owner: SessionUser, projectId: string) {
  const labels = await (await exportLabels(owner, projectId, "csv")).text();
  const estimates = (await estimateHistory(projectId)).map((r) => ({ index: r.index, nLabels: r.nLabels, estimates: r.estimates }));
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
  const roundsDir = path.join(projectDir(project), "rounds");
  const roundFiles = Object.fromEntries(
    fs.readdirSync(roundsDir).sort().map((name) => [name, createHash("sha256").update(fs.readFileSync(path.join(roundsDir, name))).digest("hex")]),
  );
  return { labels, estimates, roundFiles };
}

describe("backup and restore", () => {
  it("backs up while a round trains; the restored copy finishes that round to the same labels, estimates and round files", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    expect(await runOneJob("worker-a", { deps: fastWorkerDeps })).toBe(true);
    await labelAll(annotators[0], projectId, truth, 10);

    const gate = gatedRound();
    const running = runOneJob("worker-a", { deps: gate.deps });
    await gate.training;
    const archive = path.join(scratch(), "backup.tar");
    const { manifest } = await backupDataFolder(archive);
    expect(await db().round.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } } })).toMatchObject({ status: "running" });
    gate.release();
    await running;
    const original = await observable(owner, projectId);
    expect(original.estimates.map((r) => r.index)).toEqual([0, 1]);
    expect(Object.keys(original.roundFiles)).toContain("round-1.npy");

    expect(manifest.database.migrations).toEqual(listMigrations());
    expect(manifest.files.map((f) => f.path)).toContain(`projects/${path.basename(projectDir(await db().project.findUniqueOrThrow({ where: { id: projectId } })))}/embeddings.npy`);
    expect(manifest.files.some((f) => f.path.endsWith("round-1.npy"))).toBe(false);

    const elsewhere = path.join(scratch(), "restored");
    useDataDir(elsewhere);
    expect(await restoreDataFolder(archive)).toMatchObject({ migrated: [] });
    expect(fs.existsSync(path.join(elsewhere, "cereal.db"))).toBe(true);
    // the backed-up round was mid-training: its lease runs out and another worker takes it over
    await db().job.updateMany({ where: { status: "running" }, data: { leaseUntil: new Date(0) } });
    expect(await runOneJob("worker-b", { deps: fastWorkerDeps })).toBe(true);
    expect(await observable(owner, projectId)).toEqual(original);
  });

  it("refuses a data folder that is not empty unless forced, and a damaged archive before touching anything", async () => {
    await digitsProject();
    const dir = scratch();
    const archive = path.join(dir, "backup.tar.gz");
    await backupDataFolder(archive);

    const occupied = path.join(dir, "occupied");
    fs.mkdirSync(occupied);
    fs.writeFileSync(path.join(occupied, "notes.txt"), "keep me");
    useDataDir(occupied);
    await expect(restoreDataFolder(archive)).rejects.toThrow(/is not empty \(notes\.txt\).*--force/);
    await restoreDataFolder(archive, { force: true });
    expect(fs.readFileSync(path.join(occupied, "notes.txt"), "utf8")).toBe("keep me");
    expect(await db().project.count()).toBeGreaterThan(0);

    // one byte of a project file changed, the manifest left as it was
    const unpacked = path.join(dir, "unpacked");
    fs.mkdirSync(unpacked);
    await tar.extract({ file: archive, cwd: unpacked });
    const target = fs.readdirSync(unpacked, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith("embeddings.npy"))!;
    const bytes = fs.readFileSync(path.join(unpacked, target));
    bytes[bytes.length - 1] ^= 1;
    fs.writeFileSync(path.join(unpacked, target), bytes);
    const damaged = path.join(dir, "damaged.tar.gz");
    await tar.create({ gzip: true, file: damaged, cwd: unpacked }, fs.readdirSync(unpacked));
    const empty = path.join(dir, "empty");
    useDataDir(empty);
    await expect(restoreDataFolder(damaged)).rejects.toThrow(/embeddings\.npy does not match its checksum/);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  it("migrates an archive from older code up, and refuses one from newer code", async () => {
    const names = listMigrations();
    const older = scratch();
    for (const name of names.slice(0, -1)) fs.cpSync(path.join("prisma/migrations", name), path.join(older, name), { recursive: true });
    const dir = scratch();
    const oldApp = path.join(dir, "old-app");
    migrateDatabase(path.join(oldApp, "cereal.db"), older);
    useDataDir(oldApp);
    const archive = path.join(dir, "old.tar.gz");
    expect((await backupDataFolder(archive)).manifest.database.migrations).toEqual(names.slice(0, -1));

    useDataDir(path.join(dir, "new-app"));
    expect((await restoreDataFolder(archive)).migrated).toEqual(names.slice(-1));
    const current = path.join(dir, "current.tar.gz");
    await backupDataFolder(current);
    useDataDir(path.join(dir, "old-app-again"));
    await expect(restoreDataFolder(current, { migrationsDir: older })).rejects.toThrow(new RegExp(`made by newer code .*${names.at(-1)}`));
  });

  it("refuses on PostgreSQL, pointing to pg_dump, before reading or writing anything", async () => {
    const dir = scratch();
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test?schema=cereal_absent";
    try {
      await expect(backupDataFolder(path.join(dir, "a.tar"))).rejects.toThrow(/runs on PostgreSQL .*pg_dump --format=custom "\$DATABASE_URL"/);
      await expect(restoreDataFolder(path.join(dir, "a.tar"))).rejects.toThrow(/pg_restore/);
    } finally {
      delete process.env.DATABASE_URL;
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
