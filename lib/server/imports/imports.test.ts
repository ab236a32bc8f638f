import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as projectsRoute from "@/app/api/projects/route";
import { encodeNpy } from "@/lib/data/npy";
import { embeddingValues, rawNpy, writeManifest, writeTestBundle } from "@/lib/data/test-bundles";
import { serverConfig } from "../config";
import { db } from "../db";
import { importBundle, removeUnfinishedImports } from "./imports";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { recommendedProjectSettings } from "../project-data/options-catalogue";

let bundle: string;
beforeEach(async () => {
  bundle = await mkdtemp(path.join(os.tmpdir(), "cereal-bundle-"));
});
afterEach(async () => {
  delete process.env.CEREAL_UPLOAD_LIMIT_MB;
  await rm(bundle, { recursive: true, force: true });
});

async function filesOf(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const rel = path.posix.join(prefix, e.name);
    if (e.isDirectory()) out.push(...(await filesOf(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

/** The bundle folder as zip entries under one top folder, like zipping the folder in a file manager. */
async function zipOf(dir: string, top = "bundle"): Promise<Uint8Array> {
  const entries: Zippable = {};
  for (const file of await filesOf(dir)) entries[`${top}/${file}`] = await readFile(path.join(dir, file));
  return zipSync(entries);
}

async function upload(user: { id: string; sessionVersion: number } | null, parts: { zip?: Uint8Array; files?: Record<string, Uint8Array>; name?: string; labelBy?: string }) {
  const form = new FormData();
  form.append("name", parts.name ?? "Uploaded");
  if (parts.labelBy !== undefined) form.append("labelBy", parts.labelBy);
  if (parts.zip) form.append("bundle", new Blob([parts.zip as BlobPart]), "bundle.zip");
  for (const [name, bytes] of Object.entries(parts.files ?? {})) form.append("files", new Blob([bytes as BlobPart]), name);
  return projectsRoute.POST(await requestAs(user, "/api/projects", { method: "POST", body: form }), routeContext());
}

async function uploadFolder(user: { id: string; sessionVersion: number }, dir: string) {
  const files: Record<string, Uint8Array> = {};
  for (const file of await filesOf(dir)) files[file] = await readFile(path.join(dir, file));
  return upload(user, { files });
}

/** No project rows, no project files, no staging leftovers. */
async function expectNothingLeft() {
  expect(await db().project.count()).toBe(0);
  expect(await db().item.count()).toBe(0);
  const { dataDir } = serverConfig();
  expect(await filesOf(path.join(dataDir, "projects"))).toEqual([]);
  expect(await filesOf(path.join(dataDir, "staging"))).toEqual([]);
}

async function expectRefused(response: Response, status: number, message: RegExp) {
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(status);
  expect(body.error.message).toMatch(message);
  await expectNothingLeft();
}

describe("import by upload", () => {
  it("imports a zipped bundle whose files sit in one top folder, and the files one by one", async () => {
    const researcher = await createTestUser("RESEARCHER");
    await writeTestBundle(bundle, { n: 12, d: 4, k: 3, items: "image", soft: true, classes: 3 });
    const response = await upload(researcher, { zip: await zipOf(bundle), name: "Zipped" });
    expect(response.status).toBe(200);
    const { import: check } = await response.json();
    expect(check).toMatchObject({
      bundleName: "test-bundle",
      n: 12,
      d: 4,
      itemKind: "image",
      classNames: ["class 0", "class 1", "class 2"],
      hasReferenceLabels: true,
      clusterings: [{ name: "kmeans", k: 3, soft: true, space: null }],
    });
    const project = await db().project.findUniqueOrThrow({ where: { id: check.projectId }, include: { members: true } });
    expect(project).toMatchObject({ name: "Zipped", state: "ready", n: 12 });
    expect(project.members).toEqual([expect.objectContaining({ userId: researcher.id, role: "OWNER" })]);
    const stored = await filesOf(path.join(serverConfig().dataDir, project.dataPath));
    expect(stored).toContain("embeddings.npy");
    expect(stored).toContain("images/00011.png");
    expect(stored).toContain("clusterings/kmeans.soft.npy");
    expect(await db().item.count({ where: { projectId: project.id } })).toBe(12);
    expect(await filesOf(path.join(serverConfig().dataDir, "staging"))).toEqual([]);

    const second = await uploadFolder(researcher, bundle);
    expect(second.status).toBe(200);
    expect(await db().project.count()).toBe(2);
    await db().project.deleteMany();
    await rm(path.join(serverConfig().dataDir, "projects"), { recursive: true, force: true });
  });

  it("is for researchers and admins: 401 signed out, 403 for an annotator", async () => {
    await writeTestBundle(bundle);
    const zip = await zipOf(bundle);
    expect((await upload(null, { zip })).status).toBe(401);
    await expectRefused(await upload(await createTestUser("ANNOTATOR"), { zip }), 403, /Only researchers/);
    const admin = await createTestUser("ADMIN");
    const ok = await upload(admin, { zip });
    expect(ok.status).toBe(200);
    await db().project.deleteMany();
    await rm(path.join(serverConfig().dataDir, "projects"), { recursive: true, force: true });
  });

  it("asks for a class from the list unless told to ask one class at a time; any other value is refused, leaving nothing", async () => {
    const researcher = await createTestUser("RESEARCHER");
    await writeTestBundle(bundle, { n: 12, d: 4, k: 3, classes: 3 });
    const zip = await zipOf(bundle);
    const picked = (await (await upload(researcher, { zip, name: "Picks" })).json()).import.projectId;
    const verified = (await (await upload(researcher, { zip, name: "Verifies", labelBy: "verify" })).json()).import.projectId;
    expect((await db().project.findUniqueOrThrow({ where: { id: picked } })).labelBy).toBe("pick");
    expect((await db().project.findUniqueOrThrow({ where: { id: verified } })).labelBy).toBe("verify");
    await db().project.deleteMany();
    await rm(path.join(serverConfig().dataDir, "projects"), { recursive: true, force: true });
    await expectRefused(await upload(researcher, { zip, labelBy: "guess" }), 400, /labelBy is pick or verify/);
  });

  it("asks for a project name", async () => {
    await writeTestBundle(bundle);
    await expectRefused(await upload(await createTestUser(), { zip: await zipOf(bundle), name: " " }), 400, /Give the project a name/);
  });
});

describe("import validation: each case names the problem and leaves nothing behind", () => {
  const n = 12;
  const d = 4;
  let researcher: Awaited<ReturnType<typeof createTestUser>>;
  beforeEach(async () => {
    researcher = await createTestUser("RESEARCHER");
    await writeTestBundle(bundle, { n, d, k: 3, items: "text", classes: 3 });
  });
  const refuse = async (message: RegExp, status = 400) => expectRefused(await uploadFolder(researcher, bundle), status, message);
  const put = (file: string, bytes: Uint8Array | string) => writeFile(path.join(bundle, file), bytes);
  const manifest = async () => JSON.parse(await readFile(path.join(bundle, "manifest.json"), "utf8"));

  it("bad .npy header", async () => {
    await put("embeddings.npy", "this is not a numpy file at all");
    await refuse(/embeddings\.npy: not a \.npy file \(magic string missing\)/);
  });

  it("wrong dtype", async () => {
    await put("embeddings.npy", rawNpy("<f8", [n, d], new Uint8Array(n * d * 8)));
    await refuse(/embeddings\.npy: dtype '<f8' is not float32: save with arr\.astype\(np\.float32\)/);
  });

  it("int64 cluster ids", async () => {
    await put("clusterings/kmeans.npy", rawNpy("<i8", [n], new Uint8Array(n * 8)));
    await refuse(/kmeans\.npy: dtype '<i8' is not int32/);
  });

  it("big-endian", async () => {
    await put("embeddings.npy", rawNpy(">f4", [n, d], new Uint8Array(n * d * 4)));
    await refuse(/embeddings\.npy: big-endian dtype '>f4': save it little-endian/);
  });

  it("N mismatch between files", async () => {
    await put("clusterings/kmeans.npy", encodeNpy(new Int32Array(n - 1), [n - 1]));
    await refuse(/clusterings\/kmeans\.npy: expected shape \(12\), found \(11\)\. Every file must have one row per item \(N = 12/);
  });

  it("NaN in embeddings", async () => {
    const values = embeddingValues(n, d);
    values[5 * d + 2] = Number.NaN;
    await put("embeddings.npy", encodeNpy(values, [n, d]));
    await refuse(/embeddings\.npy: item 5, column 2 is NaN; embeddings must be finite/);
  });

  it("Inf in embeddings", async () => {
    const values = embeddingValues(n, d);
    values[3 * d] = Number.POSITIVE_INFINITY;
    await put("embeddings.npy", encodeNpy(values, [n, d]));
    await refuse(/embeddings\.npy: item 3, column 0 is Infinity/);
  });

  it("soft rows not summing to 1", async () => {
    const soft = new Float32Array(n * 3).fill(1 / 3);
    soft[4 * 3] = 0.5;
    await put("clusterings/kmeans.soft.npy", encodeNpy(soft, [n, 3]));
    await writeManifest(bundle, { ...(await manifest()), clusterings: { kmeans: { file: "clusterings/kmeans.npy", soft_file: "clusterings/kmeans.soft.npy", K: 3 } } });
    await refuse(/kmeans\.soft\.npy: row 4 sums to 1\.166667, not 1 \(±0\.001\)/);
  });

  it("soft rows within 1e-3 of 1 are accepted", async () => {
    const soft = new Float32Array(n * 3).fill(1 / 3);
    soft[0] += 0.0009;
    await put("clusterings/kmeans.soft.npy", encodeNpy(soft, [n, 3]));
    await writeManifest(bundle, { ...(await manifest()), clusterings: { kmeans: { file: "clusterings/kmeans.npy", soft_file: "clusterings/kmeans.soft.npy", K: 3 } } });
    expect((await uploadFolder(researcher, bundle)).status).toBe(200);
    await db().project.deleteMany();
    await rm(path.join(serverConfig().dataDir, "projects"), { recursive: true, force: true });
  });

  it("negative cluster id", async () => {
    const ids = new Int32Array(n);
    ids[7] = -1;
    await put("clusterings/kmeans.npy", encodeNpy(ids, [n]));
    await refuse(/kmeans\.npy: item 7 has cluster id -1, outside 0\.\.2; cluster ids must lie in 0\.\.K-1 \(K = 3/);
  });

  it("cluster id out of range", async () => {
    const ids = new Int32Array(n);
    ids[9] = 3;
    await put("clusterings/kmeans.npy", encodeNpy(ids, [n]));
    await refuse(/kmeans\.npy: item 9 has cluster id 3, outside 0\.\.2/);
  });

  it("items.jsonl with a missing image", async () => {
    await writeTestBundle(bundle, { n, d, items: "image" });
    await rm(path.join(bundle, "images", "00003.png"));
    await refuse(/items\.jsonl line 4: 'images\/00003\.png' is missing from the bundle/);
  });

  it("items.jsonl with a line that is not JSON", async () => {
    const lines = (await readFile(path.join(bundle, "items.jsonl"), "utf8")).split("\n");
    lines[1] = "{id: 1, text: oops";
    await put("items.jsonl", lines.join("\n"));
    await refuse(/items\.jsonl: line 2 is not JSON/);
  });

  it("duplicate item ids", async () => {
    const lines = (await readFile(path.join(bundle, "items.jsonl"), "utf8")).split("\n");
    lines[6] = JSON.stringify({ id: "item-2", text: "again" });
    await put("items.jsonl", lines.join("\n"));
    await refuse(/items\.jsonl: item id 'item-2' appears on lines 3 and 7; item ids must be unique/);
  });

  it("a manifest path leaving the bundle (../)", async () => {
    await writeManifest(bundle, { ...(await manifest()), embeddings: "../embeddings.npy" });
    await refuse(/embeddings: '\.\.\/embeddings\.npy' leaves the bundle folder/);
  });

  it("an absolute manifest path", async () => {
    await writeManifest(bundle, { ...(await manifest()), embeddings: "/etc/passwd" });
    await refuse(/embeddings: '\/etc\/passwd' is an absolute path/);
  });

  it("an uploaded file name leaving the bundle", async () => {
    await expectRefused(await upload(researcher, { files: { "../evil.npy": new Uint8Array(4) } }), 400, /The upload: '\.\.\/evil\.npy' leaves the bundle folder/);
  });

  it("a zip entry leaving the bundle", async () => {
    await expectRefused(await upload(researcher, { zip: zipSync({ "bundle/manifest.json": new Uint8Array(2), "../../evil.sh": new Uint8Array(4) }) }), 400, /The \.zip: '\.\.\/\.\.\/evil\.sh' leaves the bundle folder/);
  });

  it("an absolute zip entry", async () => {
    await expectRefused(await upload(researcher, { zip: zipSync({ "/etc/cron.d/evil": new Uint8Array(4) }) }), 400, /The \.zip: '\/etc\/cron\.d\/evil' is an absolute path/);
  });

  it("a symbolic link in a zip", async () => {
    const zip = zipSync({ "bundle/manifest.json": new Uint8Array(2), "bundle/embeddings.npy": [new TextEncoder().encode("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }] });
    await expectRefused(await upload(researcher, { zip }), 400, /The \.zip holds 'bundle\/embeddings\.npy', a symbolic link/);
  });

  it("a symbolic link in a bundle folder (command line)", async () => {
    await rm(path.join(bundle, "embeddings.npy"));
    await symlink("/etc/passwd", path.join(bundle, "embeddings.npy"));
    await expect(importBundle(bundle, researcher.id, { name: "Linked" })).rejects.toThrow(/'embeddings\.npy' is a symbolic link; bundles must hold real files only/);
    await expectNothingLeft();
  });

  it("a zip bomb (expansion ratio)", async () => {
    const zeros = new Uint8Array(40 * 1024 * 1024);
    const zip = zipSync({ "bundle/embeddings.npy": zeros }, { level: 9 });
    await expectRefused(await upload(researcher, { zip }), 413, /The \.zip expands \d+-fold \(40 MB from 1 MB\); .* looks like a zip bomb/);
  });

  it("a zip bomb (total size over the limit)", async () => {
    process.env.CEREAL_UPLOAD_LIMIT_MB = "1";
    const zip = zipSync({ "bundle/a.bin": new Uint8Array(3 * 1024 * 1024), "bundle/b.bin": new Uint8Array(3 * 1024 * 1024) }, { level: 9 });
    await expectRefused(await upload(researcher, { zip }), 413, /The \.zip expands to 6 MB, over the limit of 4 MB; that looks like a zip bomb/);
  });

  it("an upload over the limit is a 413, whether or not it declares its length", async () => {
    process.env.CEREAL_UPLOAD_LIMIT_MB = "1";
    const big = { "embeddings.npy": new Uint8Array(1536 * 1024) };
    await expectRefused(await upload(researcher, { files: big }), 413, /The upload is larger than the limit of 1 MB \(CEREAL_UPLOAD_LIMIT_MB\)/);

    // streamed without a content-length: counted as it arrives
    const form = new FormData();
    form.append("name", "Streamed");
    form.append("files", new Blob([big["embeddings.npy"]]), "embeddings.npy");
    const encoded = new Response(form);
    const request = await requestAs(researcher, "/api/projects", {
      method: "POST",
      headers: { "content-type": encoded.headers.get("content-type")! },
      body: encoded.body,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    await expectRefused(await projectsRoute.POST(request, routeContext()), 413, /larger than the limit of 1 MB/);
  });

  it("an upload without manifest.json", async () => {
    await expectRefused(await upload(researcher, { files: { "embeddings.npy": encodeNpy(embeddingValues(2, 2), [2, 2]) } }), 400, /no manifest\.json at its top/);
  });
});

describe("after a crash", () => {
  it("removes half-imported projects and staged uploads at start", async () => {
    const owner = await createTestUser();
    const { dataDir } = serverConfig();
    await db().project.create({ data: { ...recommendedProjectSettings(), name: "Half", state: "importing", dataPath: "projects/half", bundleName: "b", n: 1, d: 1, members: { create: { userId: owner.id, role: "OWNER" } } } });
    await mkdir(path.join(dataDir, "projects", "half"), { recursive: true });
    await writeFile(path.join(dataDir, "projects", "half", "embeddings.npy"), "x");
    await mkdir(path.join(dataDir, "staging", "upload-1", "files"), { recursive: true });
    await writeFile(path.join(dataDir, "staging", "upload-1", "upload.zip"), "partial");
    expect(await removeUnfinishedImports()).toBe(1);
    await expectNothingLeft();
  });
});
