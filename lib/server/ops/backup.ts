import fs from "node:fs/promises";
import path from "node:path";
import * as tar from "tar";
import { codeVersion } from "../code-version";
import { serverConfig } from "../config";
import { projectsRoot } from "../project-data/paths";
import { BACKUP_FORMAT, DATABASE_FILE, MANIFEST_FILE, POSTGRES_BACKUP_REFUSAL, PROJECTS_DIR, checksumFiles, type BackupManifest } from "./backup-manifest";
import { copyDatabase } from "./database-copy";
import { databaseLevel } from "./upgrade";

/**
 * `cereal backup --out FILE`: one archive (.tar, or .tar.gz by its name) of the running app's
 * data: a consistent copy of the database, every project folder, and a manifest (code version,
 * migration level, sizes, SHA-256 of each file). The auth secret and staged uploads stay out.
 */
export interface BackupResult {
  out: string;
  manifest: BackupManifest;
  archiveBytes: number;
}

export async function backupDataFolder(out: string): Promise<BackupResult> {
  const { dataDir, databasePath, postgresUrl } = serverConfig();
  if (postgresUrl) throw new Error(POSTGRES_BACKUP_REFUSAL);
  await fs.access(databasePath).catch(() => {
    throw new Error(`there is no database at ${databasePath}; set CEREAL_DATA_DIR (or DATABASE_URL) to the app's data folder`);
  });
  const work = await fs.mkdtemp(path.join(dataDir, ".backup-"));
  try {
    // The database first, then the files: every file a round row names was written before its
    // row, so the copied folder holds at least what the copied database refers to.
    await fs.mkdir(path.dirname(path.join(work, DATABASE_FILE)), { recursive: true });
    copyDatabase(databasePath, path.join(work, DATABASE_FILE));
    await snapshotTree(projectsRoot(), path.join(work, PROJECTS_DIR));
    const files = await checksumFiles(work, await listFiles(work));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      app: codeVersion(),
      database: { provider: "sqlite", migrations: databaseLevel(path.join(work, DATABASE_FILE)).applied },
      totalBytes: files.reduce((sum, f) => sum + f.size, 0),
      files,
    };
    await fs.writeFile(path.join(work, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    await fs.mkdir(path.dirname(path.resolve(out)), { recursive: true });
    // gzip only when the name asks for it: embeddings and images barely compress, and zlib is most of a large backup's time
    await tar.create({ gzip: /\.(tgz|gz)$/.test(out), file: out, cwd: work, portable: true }, [MANIFEST_FILE, ...files.map((f) => f.path)]);
    return { out, manifest, archiveBytes: (await fs.stat(out)).size };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/**
 * The project folders as they are now, hard-linked where the disk allows (no copying): project
 * files are replaced by rename, never rewritten, so a link keeps the version seen here.
 * Half-written `.tmp` files are left out.
 */
async function snapshotTree(from: string, to: string) {
  const entries = await fs.readdir(from, { withFileTypes: true }).catch(() => []);
  await fs.mkdir(to, { recursive: true });
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await snapshotTree(source, target);
    else if (entry.isFile() && !entry.name.endsWith(".tmp")) await fs.link(source, target).catch(() => fs.copyFile(source, target));
  }
}

/** Every file under `root`, as sorted archive paths with forward slashes. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}
