import { ZodError, type ZodType } from "zod";
import { AppError, badRequest, forbidden, unauthenticated } from "../errors";
import { rememberingMemberships, requireProjectRole } from "../auth/project-access";
import { assertBodyType, readBodyText, type BodyType } from "./request-body";
import { assertSameOrigin, SAFE_METHODS } from "./same-origin";
import { askerFromRequest, bearerToken, type SessionUser } from "../auth/session";
import { assertTokenScope, type TokenRule } from "./token-scope";
import { noteRequestUser, observed } from "../ops/request-log";

/**
 * The one wrapper every route handler goes through: it refuses cross-site changes and bodies of
 * the wrong type, resolves who is asking, enforces the route's access level, parses input, and
 * maps every error to `{ error: { code, message } }`. route-auth.test.ts checks that each
 * exported handler under app/ is wrapped; route-csrf.test.ts that each refuses cross-site changes.
 * "owner" is a project route only the project's owner may call, checked before its input is read.
 */
export type Access = "public" | "user" | "owner" | "researcher" | "admin";

export interface RouteOptions {
  /** the body type the handler reads (default JSON); a body of any other type is a 415 */
  body?: BodyType;
  /**
   * Which access tokens may call it besides a session. By default a `read` token may GET and a
   * `write` token do anything; "label" also lets a `label` token change it (answering tasks);
   * "session" refuses every token (token management; admin routes are always "session").
   */
  tokens?: TokenRule;
}

export interface RouteContext<P> {
  request: Request;
  params: P;
  /** null only on public routes with no session */
  user: SessionUser | null;
}
export interface AuthedContext<P> extends RouteContext<P> {
  user: SessionUser;
}

type Params = Record<string, string | string[]>;
type NextContext = { params: Promise<Params> };
export type Handler = ((request: Request, context: NextContext) => Promise<Response>) & { [WRAPPED]: Access };

export const WRAPPED = Symbol.for("cereal.route");

export function route<P extends Params = Params>(access: "public", fn: (ctx: RouteContext<P>) => Promise<unknown>, options?: RouteOptions): Handler;
export function route<P extends Params = Params>(access: Exclude<Access, "public">, fn: (ctx: AuthedContext<P>) => Promise<unknown>, options?: RouteOptions): Handler;
export function route<P extends Params>(access: Access, fn: (ctx: AuthedContext<P>) => Promise<unknown>, options: RouteOptions = {}): Handler {
  // one request's membership checks (the route's and its service's) share one lookup
  const handler = (request: Request, context: NextContext) => rememberingMemberships(() => handle(request, context));
  const handle = async (request: Request, context: NextContext) => {
    try {
      // A bearer token authenticates alone, so it needs no CSRF defence (pages never send one).
      if (!SAFE_METHODS.has(request.method) && bearerToken(request) === null) assertSameOrigin(request);
      const { user, token } = await askerFromRequest(request);
      noteRequestUser(request, user);
      if (token) assertTokenScope(token.scope, request.method, access === "admin" ? "session" : options.tokens);
      if (access !== "public") {
        if (!user) throw unauthenticated();
        if (access === "admin" && user.role !== "ADMIN") throw forbidden("Only an administrator can do this.");
        if (access === "researcher" && user.role === "ANNOTATOR") throw forbidden("Only researchers can do this.");
      }
      const params = ((await context?.params) ?? {}) as P;
      // Every route under /api/projects/[projectId] is for members only, checked before its
      // input is parsed or anything is looked up; the services check owner-only rights again.
      if (access !== "public" && typeof params.projectId === "string") await requireProjectRole(user!, params.projectId, access === "owner" ? "OWNER" : undefined);
      else if (access === "owner") throw new Error("an owner route needs a [projectId] segment");
      assertBodyType(request, options.body ?? "application/json");
      const result = await fn({ request, params, user: user as SessionUser });
      return result instanceof Response ? result : jsonResponse(result ?? { ok: true });
    } catch (error) {
      return errorResponse(error);
    }
  };
  // every request leaves one log line and one latency observation (lib/server/ops/request-log.ts)
  return Object.assign(observed(handler), { [WRAPPED]: access });
}

/** Parses a JSON body (at most 1 MB) with one schema per operation; bad JSON or a failed check is a 400. */
export async function jsonBody<T>(request: Request, schema: ZodType<T>): Promise<T> {
  const text = await readBodyText(request);
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : {};
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  return schema.parse(value);
}

/** Bodies under this many bytes are not worth compressing (the `compression` middleware's threshold). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * A JSON response. API answers are never stored by a cache (`no-store`: they are one user's view).
 * Next drops a route's Content-Length and streams every body, so its compression middleware
 * cannot see a body's size and gzips even a 20-byte answer: a gzip stream per call cost the web
 * process more than most answers themselves at 50 annotators (issue #18). A body under 1 kB says
 * `no-transform`, which the middleware (and any proxy) honours; larger ones are still compressed.
 */
export function jsonResponse(body: unknown, status = 200): Response {
  const text = JSON.stringify(body);
  const small = Buffer.byteLength(text) < COMPRESS_FROM_BYTES;
  return new Response(text, { status, headers: { "content-type": "application/json", "cache-control": small ? "no-store, no-transform" : "no-store" } });
}

export function errorResponse(error: unknown): Response {
  const body = (status: number, code: string, message: string) => jsonResponse({ error: { code, message } }, status);
  if (error instanceof AppError) return body(error.status, error.code, error.message);
  if (error instanceof ZodError) {
    const message = error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
    return body(400, "bad_request", message);
  }
  const prismaCode = (error as { code?: unknown })?.code;
  if (prismaCode === "P2002") {
    const target = (error as { meta?: { target?: unknown } }).meta?.target;
    return body(409, "conflict", `This already exists${target ? ` (${String(target)} must be unique)` : ""}.`);
  }
  if (prismaCode === "P2025") return body(404, "not_found", "The record was not found.");
  console.error(error);
  return body(500, "internal", "Something went wrong on the server; the error was logged.");
}
