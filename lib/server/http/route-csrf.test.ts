import { beforeAll, describe, expect, it } from "vitest";
import * as membersRoute from "@/app/api/projects/[projectId]/members/route";
import { db } from "../db";
import { createTestProject } from "../projects/test-projects";
import { createTestUser, requestAs, routeContext } from "./test-requests";
import { METHODS, routeFiles, routeId, routeParams, type Method } from "./test-route-files";

/**
 * Issue 19, finding 1: every state-changing handler refuses a request from a foreign page
 * (another port of localhost is the same *site*, so SameSite=Lax cookies go along) with 403,
 * and a body that does not declare its type with 415; the same requests from the app's own
 * origin, reached as 127.0.0.1 or by a LAN address, still get through. Nothing is changed by
 * the refused ones.
 */
type Handler = (req: Request, ctx: unknown) => Promise<Response>;
const CHANGES: Method[] = METHODS.filter((m) => m !== "GET");

let fixture: Awaited<ReturnType<typeof createTestProject>>;
let admin: Awaited<ReturnType<typeof createTestUser>>;

beforeAll(async () => {
  fixture = await createTestProject({ n: 4 });
  admin = await createTestUser("ADMIN");
  // the admin owns the project too, so every access level lets the request reach its body check
  await db().projectMember.create({ data: { projectId: fixture.projectId, userId: admin.id, role: "OWNER" } });
});

/** Everything a forged request could change, counted. */
async function state() {
  const d = db();
  return {
    users: await d.user.findMany({ select: { id: true, role: true, sessionVersion: true }, orderBy: { id: "asc" } }),
    members: await d.projectMember.findMany({ select: { userId: true, role: true }, orderBy: { userId: "asc" } }),
    projects: await d.project.findMany({ select: { id: true, name: true, paused: true, updatedAt: true }, orderBy: { id: "asc" } }),
    invites: await d.invite.count(),
    jobs: await d.job.count(),
    leases: await d.lease.count(),
    tasks: await d.task.count(),
    labels: await d.label.count(),
    classes: await d.referenceClass.count(),
    clusterings: await d.clustering.count(),
    throttle: await d.signInThrottle.count(),
  };
}

const handlers = routeFiles().flatMap((file) => CHANGES.map((method) => ({ file, id: routeId(file), method })));

function send(method: Method, id: string, headers: Record<string, string>, body: "json" | "text") {
  const { params, url } = routeParams(id, { projectId: fixture.projectId });
  const init = body === "json" ? { json: {} } : { body: '{"role":"ADMIN"}', headers: { "content-type": "text/plain" } };
  return requestAs(admin, `http://localhost:3000${url}`, { method, ...init, headers: { ...init.headers, host: "localhost:3000", ...headers } }).then((request) => ({ request, params }));
}

describe("cross-site request forgery", () => {
  it("finds the state-changing handlers", async () => {
    const found = [];
    for (const h of handlers) if (typeof ((await import(h.file)) as Record<string, unknown>)[h.method] === "function") found.push(h);
    expect(found.length).toBeGreaterThan(20);
  });

  it("refuses a foreign Origin or Referer with 403 and a body without its type with 415 on every state-changing handler, and changes nothing", async () => {
    const before = await state();
    let checked = 0;
    for (const { file, id, method } of handlers) {
      const handler = ((await import(file)) as Record<string, unknown>)[method] as Handler | undefined;
      if (!handler) continue;
      checked += 1;
      for (const headers of <Record<string, string>[]>[
        { origin: "http://localhost:4100" },
        { origin: "http://127.0.0.1:3000" },
        { origin: "null" },
        { referer: "http://localhost:4100/attack.html" },
        { "sec-fetch-site": "same-site" },
      ]) {
        const { request, params } = await send(method, id, headers, "json");
        const response = await handler(request, routeContext(params));
        expect(response.status, `${method} ${id} ${JSON.stringify(headers)}`).toBe(403);
        expect((await response.json()).error.message).toMatch(/cross-site/);
      }
      const { request, params } = await send(method, id, { origin: "http://localhost:3000" }, "text");
      const response = await handler(request, routeContext(params));
      expect(response.status, `${method} ${id} text/plain`).toBe(415);
    }
    expect(checked).toBeGreaterThan(20);
    expect(await state()).toEqual(before);
  });

  it("lets the app's own origin through, reached as localhost, 127.0.0.1 or a LAN address, and origins listed in CEREAL_ALLOWED_ORIGINS", async () => {
    const annotators = [await createTestUser("ANNOTATOR"), await createTestUser("ANNOTATOR"), await createTestUser("ANNOTATOR"), await createTestUser("ANNOTATOR")];
    const hosts: (Record<string, string> & { allowed?: string })[] = [
      { host: "localhost:3000", origin: "http://localhost:3000" },
      { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" },
      { host: "192.168.1.20:3000", referer: "http://192.168.1.20:3000/projects/x/members" },
      { host: "localhost:3000", origin: "https://cereal.example.org", allowed: "https://cereal.example.org" },
    ];
    for (const [i, { allowed, ...headers }] of hosts.entries()) {
      process.env.CEREAL_ALLOWED_ORIGINS = allowed ?? "";
      const request = await requestAs(admin, `http://${headers.host}/api/projects/${fixture.projectId}/members`, { method: "POST", json: { email: annotators[i].email }, headers });
      const response = await membersRoute.POST(request, routeContext({ projectId: fixture.projectId }));
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
    delete process.env.CEREAL_ALLOWED_ORIGINS;
    const members = await db().projectMember.findMany({ where: { projectId: fixture.projectId, userId: { in: annotators.map((a) => a.id) } } });
    expect(members).toHaveLength(4);
  });

  it("authenticates a request with an Authorization: Bearer header by that header alone: 401 with the session cookie beside it, from any origin", async () => {
    const target = await createTestUser("ANNOTATOR");
    for (const origin of ["http://localhost:3000", "http://localhost:4100"]) {
      const request = await requestAs(admin, `http://localhost:3000/api/projects/${fixture.projectId}/members`, {
        method: "POST",
        json: { email: target.email },
        headers: { host: "localhost:3000", origin, authorization: "Bearer cereal_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
      });
      const response = await membersRoute.POST(request, routeContext({ projectId: fixture.projectId }));
      expect(response.status).toBe(401);
      expect((await response.json()).error.message).toMatch(/No such access token/);
    }
    expect(await db().projectMember.count({ where: { userId: target.id } })).toBe(0);
  });
});
