import { randomUUID } from "node:crypto";
import { copyFile, mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { BundleError } from "@/lib/data/bundle";
import { readLines } from "@/lib/data/lines";
import { validateBundle, type BundleSummary } from "@/lib/data/validate-bundle";
import { extractBundleZip, safeBundlePath } from "./bundle-zip";
import { db } from "../db";
import { AppError, badRequest } from "../errors";
import { labelBySchema, recommendedProjectSettings } from "../project-data/options-catalogue";
import { projectDir, stagingDir } from "../project-data/paths";
import type { SessionUser } from "../auth/session";
import { openItemWriter, type ItemRow } from "./item-writer";
import { bundleRoot, receiveMultipart, withStaging, zipLimits } from "./uploads";
import { notifyImportCompleted, notifyImportFailed } from "../webhooks/events";

/**
 * Bundle import, shared by the upload route and `cereal import`: validate the staged folder,
 * copy the files the project needs into its own folder, and insert items in batches. The
 * project stays in state "importing" (invisible) until everything is in; any failure removes
 * its rows and files, so there is never a half project.
 */
export const importOptions = z.object({
  name: z.string().trim().min(1, "Give the project a name.").max(200),
  description: z.string().max(2000).default(""),
  mode: z.enum(["clusterwise", "pairwise"]).default("clusterwise"),
  labelBy: labelBySchema.default("pick"),
});
export type ImportOptions = z.input<typeof importOptions>;

const ITEM_BATCH = 5_000;

/** `moveFiles`: the source is a staging folder of ours, so files are renamed, not copied (same disk). */
export async function importBundle(sourceDir: string, ownerId: string, rawOptions: ImportOptions, { moveFiles = false } = {}) {
  const options = importOptions.parse(rawOptions);
  let summary: BundleSummary;
  try {
    summary = await validateBundle(sourceDir);
  } catch (error) {
    if (error instanceof BundleError) throw new AppError("bad_request", error.message);
    throw error;
  }
  const project = await db().project.create({
    data: {
      name: options.name,
      description: options.description,
      state: "importing",
      dataPath: `projects/${randomUUID()}`,
      bundleName: summary.name,
      n: summary.n,
      d: summary.d,
      itemKind: summary.itemKind,
      hasReferenceLabels: summary.labelsFile !== null,
      embeddingSpace: summary.embeddingSpace,
      mode: options.mode,
      labelBy: options.labelBy,
      classMode: summary.classNames.length ? "fixed" : "open",
      seed: Math.floor(Math.random() * 2 ** 31),
      ...recommendedProjectSettings(),
      members: { create: { userId: ownerId, role: "OWNER" } },
    },
  });
  const dir = projectDir(project);
  try {
    await copyBundleFiles(sourceDir, dir, summary, moveFiles);
    await insertItems(project.id, dir, summary); // from the project's copy: a staged source was moved
    await db().$transaction([
      db().referenceClass.createMany({ data: summary.classNames.map((name, index) => ({ projectId: project.id, index, name })) }),
      db().clustering.createMany({
        data: summary.clusterings.map((c) => ({
          projectId: project.id,
          name: c.name,
          k: c.k,
          file: c.file,
          softFile: c.softFile,
          space: c.space,
          origin: c.origin as object,
          trueMetrics: c.trueMetrics ?? undefined,
        })),
      }),
      db().embeddingSpace.createMany({ data: summary.spaces.map((s) => ({ projectId: project.id, name: s.name, d: s.d, file: s.file })) }),
      db().project.update({ where: { id: project.id }, data: { state: "ready" } }),
    ]);
    return { projectId: project.id, summary };
  } catch (error) {
    await discardProject(project.id, dir);
    throw error;
  }
}

/** What the new-project page shows after an import: the bundle as the app understood it. */
export function mappingCheck(projectId: string, summary: BundleSummary) {
  return {
    projectId,
    bundleName: summary.name,
    n: summary.n,
    d: summary.d,
    itemKind: summary.itemKind,
    classNames: summary.classNames,
    hasReferenceLabels: summary.labelsFile !== null,
    clusterings: summary.clusterings.map((c) => ({ name: c.name, k: c.k, soft: c.softFile !== null, space: c.space })),
    spaces: summary.spaces.map((s) => ({ name: s.name, d: s.d })),
  };
}

/**
 * The upload route's import: the body is multipart with the fields of importOptions and either
 * one part "bundle" (a .zip of the bundle folder) or parts "files" whose file names are the
 * files' paths inside the bundle. Everything is staged under the data folder and removed after.
 */
export async function importUpload(user: SessionUser, request: Request) {
  const upload = { name: null as string | null };
  try {
    const result = await receiveImport(user, request, upload);
    await notifyImportCompleted(user.id, { projectId: result.projectId, name: upload.name ?? result.bundleName, bundleName: result.bundleName, n: result.n });
    return result;
  } catch (error) {
    // a failed import leaves no project: the user's own webhook hears of it
    await notifyImportFailed(user.id, { name: upload.name, error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

async function receiveImport(user: SessionUser, request: Request, upload: { name: string | null }) {
  return withStaging(async (dir) => {
    const filesDir = path.join(dir, "files");
    const { fields, files } = await receiveMultipart(request, dir, (field, filename) => {
      if (field === "bundle") return "upload.zip";
      if (field === "files") return path.join("files", safeBundlePath(filename, "The upload"));
      throw badRequest(`The upload has a part '${field}'; send the bundle as 'bundle' (one .zip) or as 'files' (one part per file).`);
    });
    upload.name = fields.name ?? null;
    const options = importOptions.parse(fields);
    const zips = files.filter((f) => f.field === "bundle");
    if (zips.length > 1 || (zips.length === 1 && files.length > 1)) throw badRequest("Send either one .zip as 'bundle' or the bundle's files as 'files', not both.");
    if (files.length === 0) throw badRequest("The upload holds no files; pick the bundle folder or a .zip of it.");
    if (zips.length === 1) {
      await extractBundleZip(zips[0].path, zips[0].bytes, filesDir, zipLimits());
      await rm(zips[0].path, { force: true });
    }
    await mkdir(filesDir, { recursive: true });
    const { projectId, summary } = await importBundle(await bundleRoot(filesDir), user.id, options, { moveFiles: true });
    return mappingCheck(projectId, summary);
  });
}

async function copyBundleFiles(sourceDir: string, targetDir: string, summary: BundleSummary, move: boolean) {
  const files = new Set<string>(["manifest.json", summary.embeddingsFile, ...summary.imageFiles]);
  if (summary.labelsFile) files.add(summary.labelsFile);
  if (summary.itemsFile) files.add(summary.itemsFile);
  for (const c of summary.clusterings) {
    files.add(c.file);
    if (c.softFile) files.add(c.softFile);
  }
  for (const s of summary.spaces) files.add(s.file);
  const made = new Set<string>();
  for (const file of files) {
    const target = path.join(targetDir, file);
    const parent = path.dirname(target);
    if (!made.has(parent)) {
      await mkdir(parent, { recursive: true });
      made.add(parent);
    }
    await (move ? rename : copyFile)(path.join(sourceDir, file), target);
  }
}

async function insertItems(projectId: string, sourceDir: string, summary: BundleSummary) {
  const writer = await openItemWriter(projectId);
  let batch: ItemRow[] = [];
  const flush = async () => {
    await writer.write(batch);
    batch = [];
  };
  try {
    if (!summary.itemsFile) {
      // No items file: items are their row numbers (the embedding is all there is to see).
      for (let index = 0; index < summary.n; index++) {
        batch.push({ index, externalId: String(index), image: null, text: null });
        if (batch.length === ITEM_BATCH) await flush();
      }
    } else {
      let index = 0;
      for await (const line of readLines(path.join(sourceDir, summary.itemsFile))) {
        const item = JSON.parse(line) as { id: string | number; image?: string; text?: string };
        batch.push({ index, externalId: String(item.id), image: item.image ?? null, text: item.text ?? null });
        index += 1;
        if (batch.length === ITEM_BATCH) await flush();
      }
    }
    await flush();
  } finally {
    await writer.close();
  }
}

async function discardProject(projectId: string, dir: string) {
  await db().project.deleteMany({ where: { id: projectId } });
  await rm(dir, { recursive: true, force: true });
}

/**
 * At start: a crash mid-import left a project in "importing", and a crash mid-upload left files
 * in staging/; remove both (nothing else runs an import yet).
 */
export async function removeUnfinishedImports() {
  const stale = await db().project.findMany({ where: { state: "importing" }, select: { id: true, dataPath: true } });
  for (const p of stale) await discardProject(p.id, projectDir(p));
  await rm(stagingDir(), { recursive: true, force: true });
  return stale.length;
}
