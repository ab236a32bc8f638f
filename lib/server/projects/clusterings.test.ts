import { describe, expect, it } from "vitest";
import * as clusteringsRoute from "@/app/api/projects/[projectId]/clusterings/route";
import { encodeNpy } from "@/lib/data/npy";
import { db } from "../db";
import { requestAs, routeContext } from "../http/test-requests";
import { createTestProject } from "./test-projects";

type User = { id: string; sessionVersion: number };

async function upload(user: User, projectId: string, fields: Record<string, string>, files: Record<string, Uint8Array>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, v] of Object.entries(files)) form.append(k, new Blob([v as BlobPart]), `${k}.npy`);
  return clusteringsRoute.POST(await requestAs(user, `/api/projects/${projectId}/clusterings`, { method: "POST", body: form }), routeContext({ projectId }));
}

describe("adding a clustering by upload", () => {
  const n = 12;
  it("adds a hard clustering with its soft version; the owner only", async () => {
    const { projectId, owner, annotator, outsider } = await createTestProject({ n });
    const ids = Int32Array.from({ length: n }, (_, i) => i % 2);
    const soft = new Float32Array(n * 2).map((_, j) => (j % 2 === ids[Math.floor(j / 2)] ? 0.9 : 0.1));
    const files = { file: encodeNpy(ids, [n]), soft: encodeNpy(soft, [n, 2]) };
    expect((await upload(annotator, projectId, { name: "halves" }, files)).status).toBe(403);
    expect((await upload(outsider, projectId, { name: "halves" }, files)).status).toBe(403);
    const r = await upload(owner, projectId, { name: "halves" }, files);
    expect(r.status).toBe(200);
    expect((await r.json()).clustering).toMatchObject({ name: "halves", k: 2, soft: true });
    expect(await db().clustering.findFirstOrThrow({ where: { projectId, name: "halves" } })).toMatchObject({ k: 2, file: "added/halves.npy", softFile: "added/halves.soft.npy" });
    const again = await upload(owner, projectId, { name: "halves" }, files);
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe("This project already has a clustering named 'halves'; choose another name.");
  });

  it("validates like an import: N, id range, soft rows", async () => {
    const { projectId, owner } = await createTestProject({ n });
    const refuse = async (fields: Record<string, string>, files: Record<string, Uint8Array>, message: RegExp) => {
      const r = await upload(owner, projectId, fields, files);
      expect(r.status).toBe(400);
      expect((await r.json()).error.message).toMatch(message);
    };
    await refuse({ name: "short" }, { file: encodeNpy(new Int32Array(n - 2), [n - 2]) }, /short\.npy: expected shape \(12\), found \(10\)/);
    await refuse({ name: "neg" }, { file: encodeNpy(Int32Array.from({ length: n }, (_, i) => (i === 4 ? -2 : 0)), [n]) }, /neg\.npy: item 4 has cluster id -2; cluster ids are 0\.\.K-1/);
    await refuse({ name: "range", k: "2" }, { file: encodeNpy(Int32Array.from({ length: n }, (_, i) => i % 3), [n]) }, /range\.npy: item 2 has cluster id 2, outside 0\.\.1/);
    await refuse({ name: "soft" }, { file: encodeNpy(new Int32Array(n), [n]), soft: encodeNpy(new Float32Array(n).fill(0.5), [n, 1]) }, /soft\.soft\.npy: row 0 sums to 0\.500000/);
    await refuse({ name: "bad name!" }, { file: encodeNpy(new Int32Array(n), [n]) }, /name: Name the clustering with letters/);
    expect(await db().clustering.count({ where: { projectId } })).toBe(1);
  });
});
