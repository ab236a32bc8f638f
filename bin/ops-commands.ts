/**
 * `cereal backup` and `cereal restore`: the data folder (database + project folders) as one
 * archive and back (lib/server/ops/backup.ts, restore.ts), against the configured data folder.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { serverConfig } from "@/lib/server/config";
import { backupDataFolder } from "@/lib/server/ops/backup";
import { restoreDataFolder } from "@/lib/server/ops/restore";
import { CommandError } from "./project-commands";

export const OPS_USAGE = `  cereal backup   --out FILE.tar[.gz]        (while the app runs: database + project folders + manifest; gzip by the name)
  cereal restore  FILE.tar[.gz] [--force]    (into the empty data folder CEREAL_DATA_DIR; checks checksums, migrates up)`;

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export async function runBackup(argv: string[], print: (line: string) => void = console.log) {
  const { values } = parseArgs({ args: argv, options: { out: { type: "string" } } });
  if (!values.out) throw new CommandError("backup needs --out FILE.tar or FILE.tar.gz");
  const started = performance.now();
  const { out, manifest, archiveBytes } = await backupDataFolder(resolve(values.out));
  print(
    `backed up ${serverConfig().dataDir} to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${manifest.files.length} files, ` +
      `${megabytes(manifest.totalBytes)} (archive ${megabytes(archiveBytes)}), migration level ${manifest.database.migrations.at(-1) ?? "none"}`,
  );
  return manifest;
}

export async function runRestore(argv: string[], print: (line: string) => void = console.log) {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { force: { type: "boolean", default: false } } });
  if (positionals.length !== 1) throw new CommandError("restore takes one archive file");
  const { manifest, migrated } = await restoreDataFolder(resolve(positionals[0]), { force: values.force });
  print(`restored ${manifest.files.length} files (made ${manifest.createdAt} by ${manifest.app}) into ${serverConfig().dataDir}; every checksum matched`);
  print(migrated.length ? `migrated up: ${migrated.join(", ")}` : "the database is at this version's migration level");
  return { manifest, migrated };
}
