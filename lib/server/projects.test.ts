import { describe, expect, it } from "vitest";
import * as projectRoute from "@/app/api/projects/[projectId]/route";
import * as projectsRoute from "@/app/api/projects/route";
import { db } from "./db";
import { seedIfEmpty } from "./seed";
import { createTestUser, requestAs, routeContext } from "./test-requests";

describe("projects", () => {
  it("seeds the admin and the demo project once", async () => {
    const first = await seedIfEmpty();
    expect(first.seeded).toBe(true);
    expect((await seedIfEmpty()).seeded).toBe(false);
    const project = await db().project.findFirstOrThrow({ include: { members: { include: { user: true } }, classes: true, clusterings: true } });
    expect(project).toMatchObject({ name: "Fashion demo", n: 2000, d: 64, bundleName: "fashion-demo", state: "ready", itemKind: "image", hasReferenceLabels: true });
    expect(project.classes).toHaveLength(10);
    expect(project.clusterings.map((c) => c.name).sort()).toEqual(["gmm_k10", "kmeans_k10", "kmeans_k15", "kmeans_k5"]);
    expect(await db().item.count({ where: { projectId: project.id } })).toBe(2000);
    expect(project.members).toHaveLength(1);
    expect(project.members[0]).toMatchObject({ role: "OWNER", user: { email: "admin@cereal.local", role: "ADMIN" } });
  });

  it("shows a project to its members only: 200, non-member 403, unknown 404", async () => {
    const owner = await createTestUser("RESEARCHER");
    const annotator = await createTestUser("ANNOTATOR");
    const outsider = await createTestUser("RESEARCHER");
    const project = await db().project.create({
      data: {
        name: "P", bundleName: "b", n: 3, d: 2, dataPath: "projects/p-test",
        members: { create: [{ userId: owner.id, role: "OWNER" }, { userId: annotator.id, role: "ANNOTATOR" }] },
      },
    });
    const get = async (user: typeof owner, id: string) => projectRoute.GET(await requestAs(user, `/api/projects/${id}`), routeContext({ projectId: id }));
    const ok = await get(annotator, project.id);
    expect(ok.status).toBe(200);
    expect((await ok.json()).project).toMatchObject({ name: "P", role: "ANNOTATOR" });
    expect((await get(outsider, project.id)).status).toBe(403);
    expect((await get(outsider, "missing")).status).toBe(404);

    const list = async (user: typeof owner) => (await (await projectsRoute.GET(await requestAs(user, "/api/projects"), routeContext())).json()).projects;
    expect((await list(owner)).map((p: { id: string }) => p.id)).toContain(project.id);
    expect((await list(outsider)).map((p: { id: string }) => p.id)).not.toContain(project.id);
  });
});
