/**
 * Streamed multipart uploads into a staging folder (busboy): no part is ever held in memory, and
 * the whole body is counted against CEREAL_UPLOAD_LIMIT_MB as it arrives, so an over-large upload
 * is a 413 long before it fills the disk. The staging folder is removed whatever happens.
 */
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError, badRequest, unsupportedMediaType } from "../errors";
import { stagingDir } from "../project-data/paths";
import type { ZipLimits } from "./bundle-zip";

const MB = 1024 * 1024;

export function uploadLimitBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.CEREAL_UPLOAD_LIMIT_MB ?? 2048);
  return (Number.isFinite(mb) && mb > 0 ? mb : 2048) * MB;
}

/** A bundle may expand to 4x the upload limit; real bundles (float embeddings) expand far less. */
export function zipLimits(env: NodeJS.ProcessEnv = process.env): ZipLimits {
  return { maxUncompressedBytes: 4 * uploadLimitBytes(env), maxRatio: 100, ratioFloorBytes: 16 * MB };
}

function tooLarge(limit: number) {
  return new AppError(
    "payload_too_large",
    `The upload is larger than the limit of ${Math.round(limit / MB)} MB (CEREAL_UPLOAD_LIMIT_MB); import a bundle this large with npm run cereal -- import, or raise the limit.`,
  );
}

/** Runs `fn` with a fresh folder under the data folder's staging/, and removes the folder after. */
export async function withStaging<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = path.join(stagingDir(), randomUUID());
  await mkdir(dir, { recursive: true });
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ReceivedFile {
  field: string;
  /** the file name the client sent (a relative path for bundle files) */
  filename: string;
  /** where it was written */
  path: string;
  bytes: number;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

/**
 * Streams a multipart/form-data body into `dir`. `place(field, filename)` names the file's path
 * relative to `dir`, or throws (400) to refuse the part.
 */
export async function receiveMultipart(request: Request, dir: string, place: (field: string, filename: string) => string): Promise<ReceivedUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data")) throw unsupportedMediaType("Send the upload as multipart/form-data.");
  const limit = uploadLimitBytes();
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) throw badRequest("The upload is empty.");

  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  const writes: Promise<void>[] = [];
  const parts = new Set<Readable>();
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(received > limit ? tooLarge(limit) : null, chunk);
    },
  });
  const abort = (error: unknown) => counter.destroy(error as Error);

  // preservePath: a part's file name is the file's path inside the bundle, not just its base name.
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, preservePath: true, limits: { fields: 50, fieldSize: 64 * 1024, parts: 10_000_000 } });
  } catch (error) {
    throw badRequest(`The multipart body cannot be read (${(error as Error).message}); send it with a boundary, as a browser's FormData does.`);
  }
  parser.on("field", (name, value) => {
    fields[name] = value;
  });
  parser.on("file", (field, stream, info) => {
    parts.add(stream);
    let relative: string;
    try {
      relative = place(field, info.filename ?? "");
    } catch (error) {
      // busboy destroys this part with the abort's error; nothing else listens to it
      stream.on("error", () => {});
      stream.resume();
      abort(error);
      return;
    }
    const target = path.join(dir, relative);
    const write = (async () => {
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(stream, createWriteStream(target, { flags: "wx" }));
      files.push({ field, filename: info.filename ?? "", path: target, bytes: (await stat(target)).size });
    })()
      .catch((error: Error & { code?: string }) => {
        abort(error.code === "EEXIST" ? badRequest(`The upload holds '${relative}' twice.`) : error);
      })
      .finally(() => parts.delete(stream));
    writes.push(write);
  });

  try {
    await pipeline(Readable.fromWeb(request.body as WebReadableStream<Uint8Array>), counter, parser);
    await Promise.all(writes);
    // a part's write may have failed after the body ended
    if (counter.errored) throw counter.errored;
  } catch (error) {
    for (const part of parts) part.destroy();
    await Promise.allSettled(writes);
    if (error instanceof AppError) throw error;
    if (counter.errored instanceof AppError) throw counter.errored;
    throw badRequest(`The upload did not arrive whole (${(error as Error).message}); try again.`);
  }
  return { fields, files };
}

/**
 * The folder that holds manifest.json: the upload root, or its one top folder (zipping or picking
 * a bundle folder puts every file under the folder's name).
 */
export async function bundleRoot(dir: string): Promise<string> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.name !== "__MACOSX" && e.name !== ".DS_Store");
  if (entries.some((e) => e.isFile() && e.name === "manifest.json")) return dir;
  if (entries.length === 1 && entries[0].isDirectory()) {
    const inner = path.join(dir, entries[0].name);
    if ((await readdir(inner)).includes("manifest.json")) return inner;
  }
  throw badRequest("The upload has no manifest.json at its top (or in its one top folder); upload the bundle folder, or a .zip of it.");
}
