import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

/**
 * The manifest a backup archive starts with: which code and migration level made it, and the
 * size and SHA-256 of every file, which a restore checks before anything is put in place.
 * Paths are archive paths: `database/cereal.db` and `projects/<id>/...`.
 */
export const BACKUP_FORMAT = "cereal-backup/1";
export const MANIFEST_FILE = "manifest.json";
export const DATABASE_FILE = "database/cereal.db";
export const PROJECTS_DIR = "projects";

/** Backups and restores copy a SQLite file; on PostgreSQL they refuse with this (README, "PostgreSQL"). */
export const POSTGRES_BACKUP_REFUSAL =
  "cereal backup and cereal restore copy the SQLite database file; this app runs on PostgreSQL (DATABASE_URL). " +
  'Back the database up with pg_dump (pg_dump --format=custom "$DATABASE_URL" > cereal.dump; pg_restore to bring it back) ' +
  "and the data folder's projects/ with your file backups.";

export const backupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.string(),
  /** codeVersion() of the app that wrote it */
  app: z.string(),
  database: z.object({
    provider: z.literal("sqlite"),
    /** the applied migrations, oldest first; the last one is the archive's migration level */
    migrations: z.array(z.string()),
  }),
  totalBytes: z.number().int().nonnegative(),
  files: z.array(z.object({ path: z.string().min(1), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
export type BackupManifest = z.infer<typeof backupManifest>;

export type FileEntry = BackupManifest["files"][number];

/** Size and SHA-256 of each file under `root`, in the given order; a few at a time, big files streamed. */
export async function checksumFiles(root: string, files: readonly string[]): Promise<FileEntry[]> {
  const entries: FileEntry[] = new Array(files.length);
  let next = 0;
  const reader = async () => {
    while (next < files.length) {
      const index = next++;
      const full = path.join(root, files[index]);
      const { size } = await stat(full);
      const hash = createHash("sha256");
      if (size <= WHOLE_FILE_BYTES) hash.update(await readFile(full));
      else for await (const chunk of createReadStream(full)) hash.update(chunk as Buffer);
      entries[index] = { path: files[index], size, sha256: hash.digest("hex") };
    }
  };
  // small files (item images) dominate a project folder: overlapping their reads is what helps
  await Promise.all(Array.from({ length: PARALLEL_READS }, reader));
  return entries;
}

const WHOLE_FILE_BYTES = 16 * 2 ** 20;
const PARALLEL_READS = 8;
