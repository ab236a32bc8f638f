/**
 * Unpacks an uploaded bundle .zip entry by entry (yauzl reads the central directory, never the
 * whole archive into memory). Everything that can be refused from the directory alone is refused
 * before a single byte is written: a path that leaves the bundle, a symbolic link, and a zip bomb
 * (declared sizes over the limit, or an expansion ratio no real bundle has; float embeddings
 * barely compress). yauzl's validateEntrySizes then stops an entry that inflates past its
 * declared size, so a lying directory cannot get around the checks.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import { AppError, badRequest } from "../errors";

export interface ZipLimits {
  /** most bytes the archive may expand to */
  maxUncompressedBytes: number;
  /** most (uncompressed / compressed) for the whole archive, once it expands past ratioFloorBytes */
  maxRatio: number;
  ratioFloorBytes: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const MB = 1024 * 1024;

/** Entries that archivers add and a bundle never needs (macOS resource forks and folder metadata). */
function isArchiverNoise(name: string): boolean {
  return name.startsWith("__MACOSX/") || path.posix.basename(name) === ".DS_Store";
}

/**
 * A relative path inside the bundle, or a 400 that says what is wrong with it. Shared with the
 * file-by-file upload, whose part names are relative paths too.
 */
export function safeBundlePath(name: string, where: string): string {
  if (name.includes("\0")) throw badRequest(`${where}: '${name}' holds a NUL character.`);
  const unix = name.replace(/\\/g, "/");
  if (unix.startsWith("/") || /^[a-zA-Z]:/.test(unix)) throw badRequest(`${where}: '${name}' is an absolute path; a bundle holds paths relative to its folder.`);
  if (unix.split("/").includes("..")) throw badRequest(`${where}: '${name}' leaves the bundle folder (..); zip the bundle folder itself.`);
  const normal = path.posix.normalize(unix);
  if (normal === "." || normal === "") throw badRequest(`${where}: an entry has an empty name.`);
  return normal;
}

interface ZipEntryInfo {
  entry: yauzl.Entry;
  name: string;
  directory: boolean;
}

function open(zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false }, (error, zip) =>
      error ? reject(badRequest(`The upload is not a readable .zip file (${error.message}).`)) : resolve(zip),
    ),
  );
}

/** Walks the central directory; `visit` may return a promise (e.g. writing the entry) before the next entry is read. */
function eachEntry(zip: yauzl.ZipFile, visit: (info: ZipEntryInfo) => Promise<void> | void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      reject(error instanceof AppError ? error : badRequest(`The .zip file is damaged: ${(error as Error).message}`));
    };
    zip.on("error", fail);
    zip.on("end", () => failed || resolve());
    zip.on("entry", (entry: yauzl.Entry) => {
      try {
        const raw = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false);
        const directory = raw.endsWith("/");
        const name = raw.replace(/\\/g, "/");
        Promise.resolve(visit({ entry, name, directory }))
          .then(() => failed || zip.readEntry())
          .catch(fail);
      } catch (error) {
        fail(error);
      }
    });
    zip.readEntry();
  });
}

/** Checks every entry of the archive, then writes the bundle's files under `targetDir`. */
export async function extractBundleZip(zipPath: string, compressedBytes: number, targetDir: string, limits: ZipLimits): Promise<void> {
  const zip = await open(zipPath);
  try {
    let total = 0;
    await eachEntry(zip, ({ entry, name, directory }) => {
      const checked = safeBundlePath(name, "The .zip");
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK) throw badRequest(`The .zip holds '${checked}', a symbolic link; bundles must hold real files only.`);
      if (!directory) total += entry.uncompressedSize;
    });
    if (total > limits.maxUncompressedBytes)
      throw new AppError(
        "payload_too_large",
        `The .zip expands to ${Math.round(total / MB)} MB, over the limit of ${Math.round(limits.maxUncompressedBytes / MB)} MB; that looks like a zip bomb, or a bundle too large to upload (use cereal import).`,
      );
    const ratio = total / Math.max(1, compressedBytes);
    if (total > limits.ratioFloorBytes && ratio > limits.maxRatio)
      throw new AppError("payload_too_large", `The .zip expands ${Math.round(ratio)}-fold (${Math.round(total / MB)} MB from ${Math.max(1, Math.round(compressedBytes / MB))} MB); no dataset bundle compresses that well, so it looks like a zip bomb and was refused.`);
  } finally {
    zip.close();
  }

  const second = await open(zipPath);
  try {
    const made = new Set<string>();
    await eachEntry(second, async ({ entry, name, directory }) => {
      const relative = safeBundlePath(name, "The .zip");
      if (isArchiverNoise(relative)) return;
      const target = path.join(targetDir, relative);
      if (directory) {
        await mkdir(target, { recursive: true });
        return;
      }
      const parent = path.dirname(target);
      if (!made.has(parent)) {
        await mkdir(parent, { recursive: true });
        made.add(parent);
      }
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        second.openReadStream(entry, (error, s) => (error ? reject(badRequest(`The .zip entry '${relative}' cannot be read: ${error.message}`)) : resolve(s))),
      );
      await pipeline(stream, createWriteStream(target, { flags: "wx" })).catch((error: Error & { code?: string }) => {
        if (error.code === "EEXIST") throw badRequest(`The .zip holds '${relative}' twice.`);
        throw badRequest(`The .zip entry '${relative}' is damaged: ${error.message}`);
      });
    });
  } finally {
    second.close();
  }
}
