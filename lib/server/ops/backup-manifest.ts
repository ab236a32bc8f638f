import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
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

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
