import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { createTestUser, requestAs, routeContext } from "./test-requests";
import { recommendedProjectSettings } from "../project-data/options-catalogue";
import { METHODS, routeFiles, routeId, routeParams } from "./test-route-files";

/**
 * Every route under app/api/projects/[projectId]/ answers 403 to a signed-in user who is not a
 * member of the project, whatever the method and the other parameters: membership is checked
 * before anything else is looked up, so nothing about a project leaks to outsiders.
 */
const projectRoutes = path.join(process.cwd(), "app", "api", "projects", "[projectId]");

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
    const id = routeId(file);
    it(`${id} answers 403 to a non-member`, async () => {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS.filter((m) => typeof mod[m] === "function")) {
        const handler = mod[method] as (req: Request, ctx: unknown) => Promise<Response>;
        const { params, url } = routeParams(id, { projectId });
        const response = await handler(await requestAs(outsider, url, { method, json: method === "GET" || method === "DELETE" ? undefined : {} }), routeContext(params));
        expect(response.status, `${method} ${url}`).toBe(403);
      }
    });
  }
});
