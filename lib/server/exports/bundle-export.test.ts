import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/projects/[projectId]/exports/[kind]/route";
import { extractBundleZip } from "../imports/bundle-zip";
import { db } from "../db";
import { importBundle } from "../imports/imports";
import { projectFile } from "../project-data/paths";
import { seedIfEmpty } from "../projects/seed";
import { requestAs, routeContext } from "../http/test-requests";
import { zipLimits } from "../imports/uploads";

describe("bundle export", () => {
  it("exports the demo project as a .zip that imports again into the same dataset", async () => {
    await seedIfEmpty();
    const admin = await db().user.findFirstOrThrow({ where: { role: "ADMIN" } });
    const source = await db().project.findFirstOrThrow({ where: { name: "Fashion demo" }, include: { classes: true, clusterings: true } });
    const response = await exportRoute.GET(await requestAs(admin, `/api/projects/${source.id}/exports/bundle`), routeContext({ projectId: source.id, kind: "bundle" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="fashion-demo-bundle.zip"');

    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cereal-bundle-"));
    const zip = path.join(dir, "bundle.zip");
    const bytes = new Uint8Array(await response.arrayBuffer());
    await fs.writeFile(zip, bytes);
    // read back with the upload path's reader (yauzl), not the writer's library
    await extractBundleZip(zip, bytes.length, path.join(dir, "out"), zipLimits());
    const { projectId } = await importBundle(path.join(dir, "out"), admin.id, { name: "Re-imported" });
    const copy = await db().project.findUniqueOrThrow({ where: { id: projectId }, include: { classes: true, clusterings: true } });

    expect({ n: copy.n, d: copy.d, itemKind: copy.itemKind, hasReferenceLabels: copy.hasReferenceLabels }).toEqual({ n: 2000, d: 64, itemKind: "image", hasReferenceLabels: true });
    expect(copy.classes.map((c) => [c.index, c.name]).sort()).toEqual(source.classes.map((c) => [c.index, c.name]).sort());
    const shape = (cs: typeof copy.clusterings) => cs.map((c) => [c.name, c.k, c.file, c.softFile, c.trueMetrics]).sort();
    expect(shape(copy.clusterings)).toEqual(shape(source.clusterings));
    const items = async (id: string) => (await db().item.findMany({ where: { projectId: id }, orderBy: { index: "asc" } })).map((i) => [i.index, i.externalId, i.image]);
    expect(await items(projectId)).toEqual(await items(source.id));
    for (const file of ["embeddings.npy", "labels.npy", "clusterings/gmm_k10.soft.npy", "images/01999.png"]) {
      expect(Buffer.compare(await fs.readFile(projectFile(copy, file)), await fs.readFile(projectFile(source, file))), file).toBe(0);
    }
    await fs.rm(dir, { recursive: true, force: true });
  });
});
