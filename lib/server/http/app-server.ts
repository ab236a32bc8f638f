import http from "node:http";
import { rewriteForwardedHeaders } from "./client-address";

/**
 * The HTTP server in front of Next's request handler (bin/start.ts): it sets X-Forwarded-For
 * from the socket before Next sees the request (client-address.ts), and answers a request
 * Node refuses to parse, such as a 100 kB URL, with a JSON error instead of an empty 431.
 */
export function createAppServer(handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>, trusted: Set<string>): http.Server {
  const server = http.createServer((req, res) => {
    rewriteForwardedHeaders(req.headers, req.socket.remoteAddress ?? "", trusted);
    coalesceWrites(res);
    void handle(req, res);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const overflow = error.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify({ error: { code: "bad_request", message: overflow ? "The request's URL or headers are too large." : "The request is malformed." } });
    const status = overflow ? "431 Request Header Fields Too Large" : "400 Bad Request";
    socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  return server;
}

/**
 * Next writes an answer in three writes at least: the headers (it flushes them before the body),
 * each body chunk and the end of the chunked body. Each is a system call, and over loopback each
 * wakes the reader: a quarter of the web process's CPU per API call at 50 annotators (issue #18).
 * The socket is corked while the answer is written and uncorked when it ends, so a small answer
 * leaves in one write. A stream is not held back: an event stream is released at its first write,
 * any answer as soon as its buffered bytes reach the socket's high-water mark (a write that asks
 * the writer to wait must be able to drain), and every answer when it ends or its socket closes.
 */
export function coalesceWrites(res: http.ServerResponse): void {
  const socket = res.socket;
  if (!socket || socket.destroyed) return;
  socket.cork();
  let corked = true;
  const release = () => {
    if (!corked) return;
    corked = false;
    socket.uncork();
  };
  const write = res.write;
  res.write = function (this: http.ServerResponse, ...args: Parameters<typeof write>) {
    const ok = write.apply(this, args);
    if (!ok || socket.writableLength >= socket.writableHighWaterMark || String(this.getHeader("content-type") ?? "").startsWith("text/event-stream")) release();
    return ok;
  } as typeof write;
  const end = res.end;
  res.end = function (this: http.ServerResponse, ...args: Parameters<typeof end>) {
    const result = end.apply(this, args);
    release();
    return result;
  } as typeof end;
  res.once("close", release);
}
