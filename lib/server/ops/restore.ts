import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import * as tar from "tar";
import { serverConfig } from "../config";
import { listMigrations, MIGRATIONS_DIR } from "../migrate";
import { projectsRoot } from "../project-data/paths";
import { listFiles } from "./backup";
import { backupManifest, DATABASE_FILE, MANIFEST_FILE, POSTGRES_BACKUP_REFUSAL, PROJECTS_DIR, checksumFiles, type BackupManifest } from "./backup-manifest";
import { upgradeDatabase } from "./upgrade";

/**
 * `cereal restore FILE`: a backup archive into the configured (empty) data folder. Every file is
 * checked against the manifest's size and SHA-256 before anything is put in place; an archive
 * from older code is migrated up (keeping a copy first), one from newer code is refused.
 */
export interface RestoreOptions {
  /** replace the database and projects of a data folder that is not empty */
  readonly force?: boolean;
  readonly migrationsDir?: string;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** migrations applied after restoring (the archive was older than this code) */
  migrated: string[];
}

export async function restoreDataFolder(archive: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const { dataDir, databasePath, postgresUrl } = serverConfig();
  if (postgresUrl) throw new Error(POSTGRES_BACKUP_REFUSAL);
  const present = [...(existsSync(dataDir) ? await fs.readdir(dataDir) : []), ...(existsSync(databasePath) ? [databasePath] : [])];
  if (present.length && !options.force) {
    throw new Error(`${dataDir} is not empty (${present.slice(0, 3).join(", ")}${present.length > 3 ? ", ..." : ""}); restore into an empty data folder, or add --force to replace its database and projects`);
  }
  await fs.mkdir(dataDir, { recursive: true });
  const work = await fs.mkdtemp(path.join(dataDir, ".restore-"));
  try {
    await tar.extract({ file: archive, cwd: work, strict: true });
    const manifest = await readManifest(work);
    await verifyFiles(work, manifest);
    const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
    const known = new Set(listMigrations(migrationsDir));
    const unknown = manifest.database.migrations.filter((name) => !known.has(name));
    if (unknown.length) throw new Error(`the archive was made by newer code (${manifest.app}; migrations ${unknown.join(", ")} are unknown here); restore it with that version or later`);

    for (const file of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`, projectsRoot()]) await fs.rm(file, { recursive: true, force: true });
    await fs.mkdir(path.dirname(databasePath), { recursive: true });
    await move(path.join(work, DATABASE_FILE), databasePath);
    if (existsSync(path.join(work, PROJECTS_DIR))) await move(path.join(work, PROJECTS_DIR), projectsRoot());
    return { manifest, migrated: upgradeDatabase(databasePath, { dir: migrationsDir }).applied };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function readManifest(work: string): Promise<BackupManifest> {
  const text = await fs.readFile(path.join(work, MANIFEST_FILE), "utf8").catch(() => {
    throw new Error(`the archive has no ${MANIFEST_FILE}: it is not a Cereal Studio backup`);
  });
  const parsed = backupManifest.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`the archive's ${MANIFEST_FILE} is not a backup manifest this version reads: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/** Exactly the manifest's files, each with its size and checksum. */
async function verifyFiles(work: string, manifest: BackupManifest) {
  const listed = new Set(manifest.files.map((f) => f.path));
  const found = (await listFiles(work)).filter((file) => file !== MANIFEST_FILE);
  const extra = found.filter((file) => !listed.has(file));
  if (extra.length) throw new Error(`the archive holds files its manifest does not list: ${extra.slice(0, 3).join(", ")}`);
  if (!listed.has(DATABASE_FILE)) throw new Error(`the archive has no ${DATABASE_FILE}`);
  const present = new Set(found);
  const missing = manifest.files.find((f) => !present.has(f.path));
  if (missing) throw new Error(`the archive lacks ${missing.path}, which its manifest lists`);
  const actual = await checksumFiles(work, manifest.files.map((f) => f.path));
  const damaged = manifest.files.find((f, i) => f.size !== actual[i].size || f.sha256 !== actual[i].sha256);
  if (damaged) throw new Error(`${damaged.path} does not match its checksum in the manifest: the archive is damaged`);
}

/** A rename, or a copy where the destination is on another disk. */
async function move(from: string, to: string) {
  try {
    await fs.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await fs.cp(from, to, { recursive: true });
  }
}
