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
 * The socket is corked from the request until the answer ends or, at the latest, the event loop's
 * next turn after its first write: what Next writes in one go (an API answer) leaves in one write,
 * and nothing is held back longer than that turn (an event stream's events, a page streamed in
 * parts, a large export waiting for the socket to drain).
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
    if (corked) setImmediate(release);
    return write.apply(this, args);
  } as typeof write;
  const end = res.end;
  res.end = function (this: http.ServerResponse, ...args: Parameters<typeof end>) {
    const result = end.apply(this, args);
    release();
    return result;
  } as typeof end;
  res.once("close", release);
}
