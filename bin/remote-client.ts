/**
 * The HTTP side of `cereal remote`: JSON calls, a streamed multipart upload and a streamed
 * download against a Cereal Studio server, authenticated by an access token, with a progress
 * bar on stderr. node:http(s) rather than fetch: it streams a request body with backpressure and
 * reports how much has been written.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { randomBytes } from "node:crypto";

export class RemoteError extends Error {}

export interface Remote {
  server: URL;
  token: string;
  /** progress lines go here (stderr); null keeps quiet */
  progress: NodeJS.WritableStream | null;
}

export interface UploadFile {
  /** the multipart part's field name */
  field: string;
  /** the file name sent (a path inside the bundle) */
  name: string;
  path: string;
}

function send(remote: Remote, method: string, path: string, headers: Record<string, string> = {}): http.ClientRequest {
  const url = new URL(path, remote.server);
  const client = url.protocol === "https:" ? https : url.protocol === "http:" ? http : null;
  if (!client) throw new RemoteError(`--server must be an http:// or https:// URL, got ${remote.server.href}`);
  return client.request(url, { method, headers: { authorization: `Bearer ${remote.token}`, accept: "application/json", ...headers } });
}

function answer(request: http.ClientRequest): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    request.on("response", resolve);
    request.on("error", (error) => reject(new RemoteError(`could not reach the server: ${error.message}`)));
  });
}

/** The server's `{ error: { message } }`, or the status when the body is not ours. */
async function failure(response: http.IncomingMessage, path: string): Promise<RemoteError> {
  let text = "";
  for await (const chunk of response) text += chunk;
  const message = (() => {
    try {
      return (JSON.parse(text) as { error?: { message?: string } }).error?.message;
    } catch {
      return undefined;
    }
  })();
  return new RemoteError(`${path}: ${response.statusCode} ${message ?? (text.slice(0, 200) || http.STATUS_CODES[response.statusCode ?? 0])}`);
}

export async function getJson<T>(remote: Remote, path: string, method = "GET"): Promise<T> {
  const request = send(remote, method, path, method === "GET" ? {} : { "content-type": "application/json" });
  const pending = answer(request);
  request.end();
  const response = await pending;
  if ((response.statusCode ?? 500) >= 300) throw await failure(response, path);
  let text = "";
  for await (const chunk of response) text += chunk;
  return JSON.parse(text) as T;
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** A progress bar that redraws in place on a terminal and prints every quarter otherwise. */
export function progressBar(out: NodeJS.WritableStream | null, label: string, total: number | null) {
  const tty = Boolean((out as { isTTY?: boolean } | null)?.isTTY);
  let lastQuarter = -1;
  return {
    update(done: number) {
      if (!out) return;
      const share = total ? Math.min(1, done / total) : null;
      if (tty) {
        const bar = share === null ? "" : `[${"#".repeat(Math.round(share * 30)).padEnd(30, "-")}] ${(share * 100).toFixed(0).padStart(3)}% `;
        out.write(`\r${label} ${bar}${megabytes(done)}${total ? ` / ${megabytes(total)}` : ""}`);
      } else if (share !== null && Math.floor(share * 4) > lastQuarter) {
        lastQuarter = Math.floor(share * 4);
        out.write(`${label} ${(lastQuarter * 25).toFixed(0)}% of ${megabytes(total!)}\n`);
      }
    },
    finish(done: number) {
      if (!out) return;
      out.write(`${tty ? "\r" : ""}${label} done: ${megabytes(done)}${tty ? " ".repeat(30) : ""}\n`);
    },
  };
}

/** Counts the bytes that go through, for the progress bar. */
function counter(onBytes: (n: number) => void) {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      onBytes(chunk.length);
      callback(null, chunk);
    },
  });
}

const escapeQuoted = (s: string) => s.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));

/**
 * POSTs a multipart body built as a stream (fields, then each file read from disk), with its
 * exact Content-Length so that the server can refuse an oversized upload before reading it.
 */
export async function uploadMultipart<T>(remote: Remote, path: string, fields: Record<string, string>, files: UploadFile[]): Promise<T> {
  const boundary = `----cereal${randomBytes(12).toString("hex")}`;
  const fieldParts = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${escapeQuoted(name)}"\r\n\r\n${value}\r\n`));
  const fileHeads = files.map((f) => Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${escapeQuoted(f.field)}"; filename="${escapeQuoted(f.name)}"\r\ncontent-type: application/octet-stream\r\n\r\n`));
  const sizes = await Promise.all(files.map(async (f) => (await stat(f.path)).size));
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const total = fieldParts.reduce((s, b) => s + b.length, 0) + fileHeads.reduce((s, b) => s + b.length + 2, 0) + sizes.reduce((a, b) => a + b, 0) + tail.length;

  const request = send(remote, "POST", path, { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(total) });
  const pending = answer(request);
  const bar = progressBar(remote.progress, "upload", total);
  let sent = 0;
  const count = (n: number) => {
    sent += n;
    bar.update(sent);
  };
  async function* body() {
    for (const part of fieldParts) yield part;
    for (let i = 0; i < files.length; i++) {
      yield fileHeads[i];
      for await (const chunk of createReadStream(files[i].path)) yield chunk as Buffer;
      yield Buffer.from("\r\n");
    }
    yield tail;
  }
  // a server that answers early (413, 401) stops the upload; its answer is what matters
  await pipeline(body, counter(count), request).catch(() => {});
  const response = await pending;
  bar.finish(sent);
  if ((response.statusCode ?? 500) >= 300) throw await failure(response, path);
  let text = "";
  for await (const chunk of response) text += chunk;
  return JSON.parse(text) as T;
}

/** GETs a file to `out` as it arrives; returns its byte count. */
export async function download(remote: Remote, path: string, out: string): Promise<number> {
  const request = send(remote, "GET", path, { accept: "*/*" });
  const pending = answer(request);
  request.end();
  const response = await pending;
  if ((response.statusCode ?? 500) >= 300) throw await failure(response, path);
  const length = Number(response.headers["content-length"] ?? NaN);
  const bar = progressBar(remote.progress, "download", Number.isFinite(length) ? length : null);
  let received = 0;
  await pipeline(
    response,
    counter((n) => {
      received += n;
      bar.update(received);
    }),
    createWriteStream(out),
  );
  bar.finish(received);
  return received;
}
