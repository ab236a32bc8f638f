import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "./db";
import { createTestUser, requestAs, routeContext } from "./test-requests";
import { recommendedProjectSettings } from "./project-data/options-catalogue";

/**
 * Every route under app/api/projects/[projectId]/ answers 403 to a signed-in user who is not a
 * member of the project, whatever the method and the other parameters: membership is checked
 * before anything else is looked up, so nothing about a project leaks to outsiders.
 */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const projectRoutes = path.join(process.cwd(), "app", "api", "projects", "[projectId]");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

let projectId: string;
let outsider: { id: string; sessionVersion: number };

beforeAll(async () => {
  const owner = await createTestUser("RESEARCHER");
  outsider = await createTestUser("RESEARCHER");
  const project = await db().project.create({
    data: { ...recommendedProjectSettings(), name: "Private", bundleName: "b", n: 3, d: 2, dataPath: "projects/private-test", members: { create: { userId: owner.id, role: "OWNER" } } },
  });
  projectId = project.id;
});

describe("project routes and non-members", () => {
  const files = routeFiles(projectRoutes);
  it("finds the project routes", () => expect(files.length).toBeGreaterThan(10));

  for (const file of files) {
    const id = path.relative(path.join(process.cwd(), "app"), path.dirname(file)).split(path.sep).join("/");
    it(`${id} answers 403 to a non-member`, async () => {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS.filter((m) => typeof mod[m] === "function")) {
        const handler = mod[method] as (req: Request, ctx: unknown) => Promise<Response>;
        const params: Record<string, string> = Object.fromEntries([...id.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => [m[1], m[1] === "index" ? "0" : m[1] === "action" ? "retry" : m[1] === "kind" ? "labels" : "placeholder"]));
        params.projectId = projectId;
        const url = "/" + id.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_m, name: string) => params[name]);
        const response = await handler(await requestAs(outsider, url, { method, json: method === "GET" || method === "DELETE" ? undefined : {} }), routeContext(params));
        expect(response.status, `${method} ${url}`).toBe(403);
      }
    });
  }
});
