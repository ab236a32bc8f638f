import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { db } from "../db";
import { WRAPPED } from "../http/route";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { METHODS, routeFiles, routeId } from "../http/test-route-files";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { runOneJob } from "../jobs/worker-loop";
import { EXCLUDED_ROUTES, OPERATIONS, type Operation } from "./operations";
import { jsonSchema, openApiDocument, openApiPath } from "./openapi-document";

type Handler = ((req: Request, ctx: unknown) => Promise<Response>) & { [WRAPPED]?: string };
const files = new Map(routeFiles().map((file) => [routeId(file), file]));
const key = (method: string, route: string) => `${method} ${route}`;
const documented = new Map(OPERATIONS.map((op) => [key(op.method, op.route), op]));

async function handlerOf(op: Pick<Operation, "method" | "route">): Promise<Handler> {
  const mod = (await import(files.get(op.route)!)) as Record<string, Handler>;
  return mod[op.method];
}

describe("the OpenAPI document covers every route file", () => {
  it("documents each exported handler or names why it is left out", async () => {
    const missing: string[] = [];
    for (const [id, file] of files) {
      if (EXCLUDED_ROUTES[id]) continue;
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS) if (typeof mod[method] === "function" && !documented.has(key(method, id))) missing.push(key(method, id));
    }
    expect(missing, "add these to lib/server/api-docs/operations.ts (or EXCLUDED_ROUTES with the reason)").toEqual([]);
    expect(files.size).toBeGreaterThan(40);
  });

  it("documents no handler that does not exist, with route()'s access level", async () => {
    for (const op of OPERATIONS) {
      expect(files.has(op.route), `${op.route} has no route file`).toBe(true);
      const handler = await handlerOf(op);
      expect(typeof handler, key(op.method, op.route)).toBe("function");
      expect(handler[WRAPPED], key(op.method, op.route)).toBe(op.access);
    }
    for (const id of Object.keys(EXCLUDED_ROUTES)) expect(files.has(id)).toBe(true);
  });

  it("gives every JSON response a real schema (not {})", () => {
    for (const op of OPERATIONS) {
      if ("raw" in op.response) continue;
      const schema = jsonSchema(op.response, "output");
      expect(schema.type === "object" || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf), key(op.method, op.route)).toBe(true);
    }
  });

  it("passes an OpenAPI 3.1 validator", async () => {
    const document = openApiDocument();
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    // path parameters, bodies, the error shape and the bearer scheme are there
    const labels = document.paths["/api/projects/{projectId}/labels"].post as { parameters: { name: string; in: string }[]; requestBody: { content: Record<string, { schema: { required: string[] } }> }; security: unknown[] };
    expect(labels.parameters).toEqual([{ name: "projectId", in: "path", required: true, schema: { type: "string" } }]);
    expect(labels.requestBody.content["application/json"].schema.required).toEqual(expect.arrayContaining(["taskId", "idempotencyKey", "kind"]));
    expect(labels.security).toEqual([{ session: [] }, { bearer: ["label", "write"] }]);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.schemas.Error).toMatchObject({ type: "object", required: ["error"] });
    const items = document.paths["/api/projects/{projectId}/items"].get as { parameters: { name: string; in: string; required: boolean }[] };
    expect(items.parameters.filter((p) => p.in === "query").map((p) => [p.name, p.required])).toEqual([
      ["after", false],
      ["limit", false],
      ["clustering", false],
      ["cluster", false],
      ["class", false],
    ]);
    expect(Object.keys(document.paths)).toContain(openApiPath("api/projects/[projectId]/exports/[kind]"));
  });
});

describe("each documented response parses the real one", () => {
  let ctx: { projectId: string; owner: { id: string; sessionVersion: number }; admin: { id: string; sessionVersion: number }; values: Record<string, string> };

  beforeAll(async () => {
    // a project with one finished round, an invite, a simulation and a token: every GET has something to show
    const { projectId, owner, annotators, truth } = await digitsProject({ seedSize: 20 });
    await labelAll(annotators[0], projectId, truth, 20);
    await db().job.deleteMany({ where: { status: { not: "queued" } } });
    expect(await runOneJob("openapi-test", { deps: fastWorkerDeps })).toBe(true);
    const ownerRow = await db().user.findUniqueOrThrow({ where: { id: owner.id } });
    const admin = await createTestUser("ADMIN");
    const clustering = (await db().clustering.findFirstOrThrow({ where: { projectId }, orderBy: { name: "asc" } })).name;
    ctx = { projectId, owner: ownerRow, admin, values: { projectId, clustering } };
  }, 120_000);

  async function call(method: string, route: string, init: { query?: string; json?: unknown; params?: Record<string, string>; as?: "admin" | null } = {}) {
    const params: Record<string, string> = { ...(route.includes("[projectId]") ? { projectId: ctx.projectId } : {}), ...init.params };
    const url = `http://localhost:3000${openApiPath(route).replace(/\{(\w+)\}/g, (_m, name: string) => params[name])}${init.query ?? ""}`;
    const user = init.as === null ? null : init.as === "admin" ? ctx.admin : ctx.owner;
    const handler = await handlerOf({ method: method as Operation["method"], route });
    return handler(await requestAs(user, url, { method, json: init.json, headers: { host: "localhost:3000", origin: "http://localhost:3000" } }), routeContext(params));
  }

  async function parsesAs(method: string, route: string, init: Parameters<typeof call>[2] = {}) {
    const op = documented.get(key(method, route))!;
    const response = await call(method, route, init);
    const body = await response.json();
    expect(response.status, `${key(method, route)}: ${JSON.stringify(body)}`).toBe(route === "api/ready" ? 503 : 200);
    const parsed = (op.response as ZodType).safeParse(body);
    expect(parsed.success ? [] : parsed.error.issues, key(method, route)).toEqual([]);
    return body;
  }

  it("every documented JSON GET", async () => {
    const invite = await parsesAs("POST", "api/projects/[projectId]/invites", { json: { email: "someone@example.org" } });
    const simulation = await parsesAs("POST", "api/projects/[projectId]/simulations", { json: { budget: 30, seedSize: 10, batch: 10 } });
    await parsesAs("PUT", "api/projects/[projectId]/webhook", { json: { url: "https://example.org/hooks/cereal" } });
    await parsesAs("PUT", "api/me/webhook", { json: { url: "https://example.org/hooks/imports", rotateSecret: true } });
    const extra: Record<string, Parameters<typeof call>[2]> = {
      "api/admin/users": { as: "admin" },
      "api/invites/[token]": { as: null, params: { token: invite.invite.path.split("/").pop() } },
      "api/projects/[projectId]/contingency": { query: `?clustering=${ctx.values.clustering}` },
      "api/projects/[projectId]/simulations/[simulationId]": { params: { simulationId: simulation.id } },
      "api/ready": { as: null },
      "api/health": { as: null },
    };
    const gets = OPERATIONS.filter((op) => op.method === "GET" && !("raw" in op.response));
    expect(gets.length).toBeGreaterThan(20);
    for (const op of gets) await parsesAs("GET", op.route, extra[op.route]);
    // the other shape of items: one cell of the contingency view
    const cell = await parsesAs("GET", "api/projects/[projectId]/items", { query: `?clustering=${ctx.values.clustering}&cluster=0&limit=5` });
    expect(cell.total).toBeGreaterThan(0);
    // the estimates the progress route reports are those of the finished round
    const progress = await parsesAs("GET", "api/projects/[projectId]/progress");
    expect(progress.lastRound).toMatchObject({ index: 0, nLabels: 20 });
    expect(Object.keys(progress.estimates[ctx.values.clustering])).toContain("nmi");
  });

  it("the main POSTs, PATCHes and DELETEs", async () => {
    const made = await parsesAs("POST", "api/tokens", { json: { name: "ci", scope: "write", expiresInDays: 7 } });
    await parsesAs("DELETE", "api/tokens/[tokenId]", { params: { tokenId: made.id } });
    const next = await parsesAs("POST", "api/projects/[projectId]/tasks/next", { query: "?count=2" });
    const [task, other] = next.tasks;
    await parsesAs("POST", "api/projects/[projectId]/labels", { json: { taskId: task.id, kind: "label", classIndex: 1, idempotencyKey: "openapi-label-1" } });
    await parsesAs("POST", "api/projects/[projectId]/labels/undo", { json: {} });
    await parsesAs("POST", "api/projects/[projectId]/tasks/release", { json: { taskIds: [other.id] } });
    await parsesAs("POST", "api/projects/[projectId]/label-free", { query: "?measure=silhouette" });
    await parsesAs("PATCH", "api/projects/[projectId]/settings", { json: { guidelines: "Label the digit." } });
    const member = await createTestUser("ANNOTATOR");
    await parsesAs("POST", "api/projects/[projectId]/members", { json: { email: member.email } });
    await parsesAs("DELETE", "api/projects/[projectId]/members/[userId]", { params: { userId: member.id } });
    await parsesAs("POST", "api/projects/[projectId]/clusterings/candidates", { json: { method: "kmeans", k: 4 } });
    const user = await parsesAs("POST", "api/admin/users", { as: "admin", json: { email: "new-user@example.org", name: "New", password: "long-enough-1" } });
    await parsesAs("PATCH", "api/admin/users/[userId]", { as: "admin", params: { userId: user.user.id }, json: { role: "RESEARCHER" } });
  });

  it("downloads carry a documented content type", async () => {
    const op = documented.get(key("GET", "api/projects/[projectId]/exports/[kind]"))!;
    const types = Object.keys((op.response as { raw: Record<string, string> }).raw);
    for (const [kind, query] of [["labels", "?format=csv"], ["labels", "?format=jsonl"], ["items", "?format=parquet"], ["estimates", ""], ["config", ""], ["bundle", ""]]) {
      const response = await call("GET", op.route, { params: { kind }, query });
      expect(response.status, kind).toBe(200);
      expect(types, `${kind}${query}`).toContain(response.headers.get("content-type")!.split(";")[0]);
      await response.arrayBuffer();
    }
  });
});
