import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import * as projectsRoute from "@/app/api/projects/route";
import { encodeNpy } from "@/lib/data/npy";
import { serverConfig } from "@/lib/server/config";
import { db } from "@/lib/server/db";
import { createTestUser, requestAs, routeContext } from "@/lib/server/http/test-requests";
import { CommandError, runAddClustering, runImport } from "./project-commands";

const DEMO = path.join(process.cwd(), "data", "demo");

async function filesOf(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.posix.join(prefix, e.name);
    if (e.isDirectory()) out.push(...(await filesOf(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

/** Every row that describes the project (ids, paths, times and the random seed aside) and every file's hash. */
async function snapshot(projectId: string) {
  const p = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    include: {
      members: { select: { userId: true, role: true } },
      classes: { select: { index: true, name: true, description: true }, orderBy: { index: "asc" } },
      clusterings: { select: { name: true, k: true, file: true, softFile: true, space: true, origin: true, trueMetrics: true }, orderBy: { name: "asc" } },
      spaces: { select: { name: true, d: true, file: true } },
      items: { select: { index: true, externalId: true, image: true, text: true }, orderBy: { index: "asc" } },
    },
  });
  const { id, dataPath, createdAt, updatedAt, seed, ...rest } = p;
  void [id, createdAt, updatedAt, seed];
  const dir = path.join(serverConfig().dataDir, dataPath);
  const files: Record<string, string> = {};
  for (const file of await filesOf(dir)) files[file] = createHash("sha256").update(await readFile(path.join(dir, file))).digest("hex");
  return { ...rest, files };
}

describe("cereal import", () => {
  it("gives the same project as the upload route for the demo bundle", async () => {
    const owner = await createTestUser("RESEARCHER");
    const lines: string[] = [];
    const cli = await runImport([DEMO, "--name", "Demo", "--owner", owner.email, "--description", "the demo"], (l) => lines.push(l));
    expect(lines[0]).toMatch(new RegExp(`^imported fashion-demo as project ${cli.projectId} in [\\d.]+ s$`));
    expect(lines[1]).toBe("  N = 2000, D = 64, items: image, classes: T-shirt/top, Trouser, Pullover, Dress, Coat, Sandal, Shirt, Sneaker, Bag, Ankle boot");

    const entries: Zippable = {};
    for (const file of await filesOf(DEMO)) entries[`demo/${file}`] = await readFile(path.join(DEMO, file));
    const form = new FormData();
    form.append("name", "Demo");
    form.append("description", "the demo");
    form.append("bundle", new Blob([zipSync(entries, { level: 1 }) as BlobPart]), "demo.zip");
    const response = await projectsRoute.POST(await requestAs(owner, "/api/projects", { method: "POST", body: form }), routeContext());
    expect(response.status).toBe(200);
    const uploaded = (await response.json()).import;
    expect({ ...uploaded, projectId: cli.projectId }).toEqual(cli);

    const a = await snapshot(cli.projectId);
    const b = await snapshot(uploaded.projectId);
    expect(a.items).toHaveLength(2000);
    expect(a.items[1999]).toEqual({ index: 1999, externalId: expect.any(String), image: expect.stringMatching(/^images\/.+\.png$/), text: null });
    expect(Object.keys(a.files)).toHaveLength(2000 + 1 + 1 + 1 + 1 + 5); // images, manifest, items, embeddings, labels, 4 clusterings + 1 soft
    expect(b).toEqual(a);
  });

  it("refuses an unknown owner, an annotator owner and a missing name", async () => {
    const annotator = await createTestUser("ANNOTATOR");
    await expect(runImport([DEMO, "--name", "X", "--owner", "nobody@test.local"])).rejects.toThrow(/no user with email nobody@test.local/);
    await expect(runImport([DEMO, "--name", "X", "--owner", annotator.email])).rejects.toThrow(CommandError);
    await expect(runImport([DEMO, "--owner", annotator.email])).rejects.toThrow(/--name is required/);
  });

  it("reports a bundle error as the validator's message", async () => {
    const owner = await createTestUser("RESEARCHER");
    await expect(runImport([path.join(DEMO, "clusterings"), "--name", "X", "--owner", owner.email])).rejects.toThrow(/^bundle: 'manifest\.json' is missing from the bundle\.$/);
  });
});

describe("cereal add-clustering", () => {
  it("adds a validated clustering to a project, and refuses ids out of range", async () => {
    const owner = await createTestUser("RESEARCHER");
    const { projectId } = await runImport([DEMO, "--name", "Demo", "--owner", owner.email], () => {});
    const dir = await mkdtemp(path.join(os.tmpdir(), "cereal-clustering-"));
    try {
      const ids = Int32Array.from({ length: 2000 }, (_, i) => i % 4);
      await writeFile(path.join(dir, "four.npy"), encodeNpy(ids, [2000]));
      const added = await runAddClustering(["--project", projectId, "--name", "four", "--file", path.join(dir, "four.npy")], () => {});
      expect(added).toMatchObject({ name: "four", k: 4, soft: false });
      const row = await db().clustering.findFirstOrThrow({ where: { projectId, name: "four" } });
      expect(row).toMatchObject({ k: 4, file: "added/four.npy", softFile: null });
      const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
      expect(await readFile(path.join(serverConfig().dataDir, project.dataPath, "added/four.npy"))).toEqual(Buffer.from(encodeNpy(ids, [2000])));

      await expect(runAddClustering(["--project", projectId, "--name", "three", "--file", path.join(dir, "four.npy"), "--k", "3"])).rejects.toThrow(
        /three\.npy: item 3 has cluster id 3, outside 0\.\.2/,
      );
      expect(await db().clustering.count({ where: { projectId, name: "three" } })).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
