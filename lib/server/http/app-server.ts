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
