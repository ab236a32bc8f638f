import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { routeFiles, routeId } from "./test-route-files";

/**
 * Test support: the app's route handlers served over real HTTP without a Next build, for clients
 * that must talk to a server (the remote command line, the Python example). Paths match route
 * folders as Next matches them: static segments before [param] segments, catch-alls last.
 */
type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

interface Pattern {
  segments: string[];
  file: string;
}

const rank = (segment: string) => (segment.startsWith("[...") ? 2 : segment.startsWith("[") ? 1 : 0);

function match(patterns: Pattern[], pathname: string): { file: string; params: Record<string, string | string[]> } | null {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const candidates = patterns.filter((p) => p.segments.length === parts.length || p.segments.at(-1)?.startsWith("[..."));
  let best: { file: string; params: Record<string, string | string[]>; score: number[] } | null = null;
  for (const p of candidates) {
    const params: Record<string, string | string[]> = {};
    let ok = true;
    for (let i = 0; i < p.segments.length && ok; i++) {
      const segment = p.segments[i];
      if (segment.startsWith("[...")) params[segment.slice(4, -1)] = parts.slice(i);
      else if (segment.startsWith("[")) params[segment.slice(1, -1)] = parts[i];
      else ok = segment === parts[i];
      if (!segment.startsWith("[...") && i === p.segments.length - 1 && parts.length !== p.segments.length) ok = false;
    }
    const score = p.segments.map(rank);
    if (ok && (!best || score.join() < best.score.join())) best = { file: p.file, params, score };
  }
  return best && { file: best.file, params: best.params };
}

export async function startTestServer(): Promise<{ url: string; close(): Promise<void> }> {
  const patterns = routeFiles().map((file) => ({ file, segments: routeId(file).split("/") }));
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const found = match(patterns, url.pathname);
      const handler = found && ((await import(found.file)) as Record<string, Handler>)[req.method ?? "GET"];
      if (!found || !handler) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not_found", message: `no ${req.method} ${url.pathname}` } }));
        return;
      }
      // HTTP/1.1: a request has a body only when it declares a length or a transfer encoding
      const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
      const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v] as [string, string]])));
      const request = new Request(url, { method: req.method, headers, body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined, duplex: "half" } as RequestInit);
      const response = await handler(request, { params: Promise.resolve(found.params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
