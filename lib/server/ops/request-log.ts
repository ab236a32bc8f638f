import { logger } from "./logger";
import { metrics } from "./metrics";

/**
 * One JSON line and one latency observation per API request, recorded around route(): method,
 * route pattern, status, milliseconds to the response's headers, user id and project id. Never
 * bodies, query strings, cookies or other headers.
 */
type Params = Record<string, string | string[]>;
type NextHandler = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

// route() notes who asked once it knows; the request object is the key, so nothing leaks between requests
const requestUsers = new WeakMap<Request, string>();

export function noteRequestUser(request: Request, user: { id: string } | null) {
  if (user) requestUsers.set(request, user.id);
}

/** The path with each parameter's value put back as its [name], e.g. /api/projects/[projectId]/labels. */
export function routePattern(pathname: string, params: Params): string {
  let pattern = pathname;
  for (const [name, value] of Object.entries(params)) {
    const segment = Array.isArray(value) ? value.map(encodeURIComponent).join("/") : encodeURIComponent(value);
    const placeholder = Array.isArray(value) ? `[...${name}]` : `[${name}]`;
    pattern = pattern.replace(new RegExp(`/${escapeRegExp(segment)}(?=/|$)`), `/${placeholder}`);
  }
  return pattern;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function observed(handler: NextHandler): NextHandler {
  return async (request, context) => {
    const started = performance.now();
    const response = await handler(request, context);
    const seconds = (performance.now() - started) / 1000;
    const params = ((await context?.params) ?? {}) as Params;
    const route = routePattern(new URL(request.url).pathname, params);
    const status = response.status;
    metrics().requestSeconds.observe({ method: request.method, route, status: String(status) }, seconds);
    const projectId = typeof params.projectId === "string" ? params.projectId : undefined;
    logger().info({ method: request.method, route, status, ms: Math.round(seconds * 10_000) / 10, userId: requestUsers.get(request), projectId }, "request");
    return response;
  };
}
