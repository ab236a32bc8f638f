import { describe, expect, it } from "vitest";
import { WRAPPED } from "./route";
import { requestAs, routeContext } from "./test-requests";
import { METHODS, routeFiles, routeId, routeParams } from "./test-route-files";

/** Every route handler under app/ goes through route(); all but next-auth's answer 401 without a session. */
const PUBLIC_ROUTES = new Set([
  "api/auth/[...nextauth]",
  // any /api path that no route matches: a JSON 404
  "api/[...path]",
  // invite links: the invitee may have no account yet; the 256-bit token is the authorization
  "api/invites/[token]",
  // probes for load balancers and supervisors: no session, no details beyond readiness
  "api/health",
  "api/ready",
]);

const files = routeFiles();

describe("route authorization", () => {
  it("finds the route handlers", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    const id = routeId(file);
    it(`${id}: every handler is wrapped, and ${PUBLIC_ROUTES.has(id) ? "is public by design" : "answers 401 without a session"}`, async () => {
      const mod = (await import(file)) as Record<string, unknown>;
      const handlers = METHODS.filter((m) => typeof mod[m] === "function");
      expect(handlers.length).toBeGreaterThan(0);
      for (const method of handlers) {
        const handler = mod[method] as ((req: Request, ctx: unknown) => Promise<Response>) & { [WRAPPED]?: string };
        expect(handler[WRAPPED], `${method} ${id} must be made with route()`).toBeDefined();
        expect(handler[WRAPPED] === "public").toBe(PUBLIC_ROUTES.has(id));
        if (PUBLIC_ROUTES.has(id)) continue;
        // Dynamic segments get a placeholder: authentication is checked before anything is looked up.
        const { params, url } = routeParams(id);
        const response = await handler(await requestAs(null, url, { method, json: method === "GET" || method === "DELETE" ? undefined : {} }), routeContext(params));
        expect(response.status, `${method} ${url}`).toBe(401);
        expect((await response.json()).error.code).toBe("unauthenticated");
      }
    });
  }
});
