import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as projectRoute from "@/app/api/projects/[projectId]/route";
import * as projectsRoute from "@/app/api/projects/route";
import { serverConfig } from "../config";
import { db } from "../db";
import { seedIfEmpty } from "./seed";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { addTestLabels, createTestProject } from "./test-projects";
import { recommendedProjectSettings } from "../project-data/options-catalogue";

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
      data: { ...recommendedProjectSettings(),
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

describe("project details by role", () => {
  it("gives true metrics and reference-label presence to the owner only", async () => {
    const { projectId, owner, annotator } = await createTestProject({ classes: 3 });
    const get = async (user: typeof owner) => (await (await projectRoute.GET(await requestAs(user, `/api/projects/${projectId}`), routeContext({ projectId }))).json()).project;
    const asOwner = await get(owner);
    expect(asOwner.clusterings[0]).toMatchObject({ name: "kmeans", trueMetrics: { nmi: 0.5 } });
    expect(asOwner.hasReferenceLabels).toBe(true);
    const asAnnotator = await get(annotator);
    expect(asAnnotator.role).toBe("ANNOTATOR");
    expect(asAnnotator.clusterings[0]).toEqual({ id: expect.any(String), name: "kmeans", k: 3, space: null, soft: false });
    expect(asAnnotator).not.toHaveProperty("hasReferenceLabels");
    expect(JSON.stringify(asAnnotator)).not.toMatch(/trueMetrics|"nmi"/);
  });

  it("lists progress as counted labels over the budget", async () => {
    const { projectId, owner, annotator } = await createTestProject();
    await addTestLabels(projectId, annotator.id, 3);
    const firstLabel = await db().label.findFirstOrThrow({ where: { projectId } });
    await db().label.update({ where: { id: firstLabel.id }, data: { withdrawn: true } });
    const list = (await (await projectsRoute.GET(await requestAs(owner, "/api/projects"), routeContext())).json()).projects;
    expect(list.find((p: { id: string }) => p.id === projectId)).toMatchObject({ labels: 2, budget: 1000, lastEstimate: null });
  });
});

describe("project deletion", () => {
  const del = async (user: { id: string; sessionVersion: number }, projectId: string, json: unknown) =>
    projectRoute.DELETE(await requestAs(user, `/api/projects/${projectId}`, { method: "DELETE", json }), routeContext({ projectId }));

  it("removes the rows and the files, after the owner types the name", async () => {
    const { projectId, owner, annotator, outsider } = await createTestProject({ items: "image" }, "Doomed");
    await addTestLabels(projectId, annotator.id, 1);
    const { dataPath } = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const dir = path.join(serverConfig().dataDir, dataPath);
    expect((await readdir(dir)).sort()).toEqual(["clusterings", "embeddings.npy", "images", "items.jsonl", "labels.npy", "manifest.json"]);

    expect((await del(annotator, projectId, { confirmName: "Doomed" })).status).toBe(403);
    expect((await del(outsider, projectId, { confirmName: "Doomed" })).status).toBe(403);
    const wrong = await del(owner, projectId, { confirmName: "doomed?" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.message).toBe("Type the project's name, Doomed, to confirm.");
    expect(await db().project.count({ where: { id: projectId } })).toBe(1);

    expect((await del(owner, projectId, { confirmName: "Doomed" })).status).toBe(200);
    expect(await db().project.count({ where: { id: projectId } })).toBe(0);
    for (const table of ["item", "clustering", "referenceClass", "projectMember", "label", "task", "batch"] as const)
      expect(await (db()[table] as unknown as { count: (a: unknown) => Promise<number> }).count({ where: { projectId } }), table).toBe(0);
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
  });
});
