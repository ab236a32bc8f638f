import type { AddressInfo } from "node:net";
import type net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type http from "node:http";
import { createAppServer } from "./app-server";

/**
 * Issue #18: Next writes an answer as its headers, each body chunk and the chunked body's end, each
 * a system call that wakes the reader; the app server sends a small answer in one write, and
 * holds back neither an event stream, nor a page streamed in parts, nor a body larger than the
 * socket's buffer.
 */
let server: http.Server | null = null;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = null;
});

/** Serves `respond` behind createAppServer; counts the writes each server-side socket hands to the OS. */
async function serve(respond: (res: http.ServerResponse) => void | Promise<void>) {
  const writes: number[] = [];
  server = createAppServer(async (_req, res) => respond(res), new Set());
  server.on("connection", (socket: net.Socket & { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void }) => {
    const connection = writes.push(0) - 1;
    for (const method of ["_write", "_writev"] as const) {
      const original = socket[method];
      socket[method] = (...args: unknown[]) => {
        writes[connection]++;
        return original.apply(socket, args);
      };
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, writes };
}

/** What Next does with a route's Response: headers flushed first, then the body chunk by chunk, then the end. */
function likeNext(res: http.ServerResponse, chunks: string[]) {
  res.statusCode = 200;
  res.setHeader("content-type", "application/json");
  res.flushHeaders();
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

describe("answers leave the app server in one write", () => {
  it("a small answer written as Next writes it (flushed headers, two chunks, the end) is one write", async () => {
    const { base, writes } = await serve((res) => likeNext(res, ['{"status":', '"ok"}']));
    const response = await fetch(`${base}/api/health`);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(writes).toEqual([1]);
  });

  it("so is each of several answers, kept-alive connections included", async () => {
    const { base, writes } = await serve((res) => likeNext(res, ['{"n":1}']));
    for (let i = 0; i < 3; i++) expect(await (await fetch(`${base}/x`)).json()).toEqual({ n: 1 });
    expect(writes.reduce((sum, n) => sum + n, 0)).toBe(3);
  });

  it.each([
    ["an event stream's first event", "text/event-stream; charset=utf-8", "event: snapshot\ndata: {}\n\n", ""],
    ["the shell of a page streamed in parts", "text/html; charset=utf-8", "<p>the shell</p>", "<p>the rest</p>"],
  ])("%s arrives while the answer is still open", async (_what, contentType, first, rest) => {
    let finish = () => {};
    const { base } = await serve(
      (res) =>
        new Promise<void>((resolve) => {
          res.setHeader("content-type", contentType);
          res.flushHeaders();
          res.write(first);
          finish = () => {
            res.end(rest);
            resolve();
          };
        }),
    );
    const reader = (await fetch(`${base}/stream`)).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(first);
    finish();
    let after = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) after += new TextDecoder().decode(chunk.value);
    expect(after).toBe(rest);
  });

  it("a body far larger than the socket's buffer streams through, waiting for drain as Next does", async () => {
    const chunk = "x".repeat(64 * 1024);
    const { base, writes } = await serve(async (res) => {
      res.setHeader("content-type", "text/csv");
      res.flushHeaders();
      for (let i = 0; i < 64; i++) if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
      res.end();
    });
    const text = await (await fetch(`${base}/export`)).text();
    expect(text.length).toBe(64 * chunk.length);
    expect(writes[0]).toBeGreaterThan(1);
  });
});
