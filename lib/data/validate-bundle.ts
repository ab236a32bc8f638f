/**
 * Full validation of a dataset bundle before import (shared data/README.md format), streaming so
 * that N = 1M works in bounded memory. Every failure is a BundleError whose message names the
 * file, the place and what to do about it.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { BundleError } from "./bundle";
import { readLines } from "./lines";
import { forEachNpyChunk, readNpyFileHeader, type NpyFileHeader } from "./npy-stream";
import { NpyFormatError } from "./npy";
import { firstRowFault, ROW_SUM_TOLERANCE } from "./probability-rows";

const manifestSchema = z.object({
  name: z.string().min(1, "give the bundle a name"),
  N: z.number().int().positive("N must be a positive integer"),
  D: z.number().int().positive("D must be a positive integer").optional(),
  class_names: z.array(z.string().min(1)).optional(),
  embeddings: z.string().optional(),
  labels: z.string().optional(),
  items: z.string().optional(),
  spaces: z.record(z.string().regex(/^[\w.-]+$/, "space names use letters, digits, _ . -"), z.object({ file: z.string(), D: z.number().int().positive() })).optional(),
  clusterings: z.record(
    z.string().regex(/^[\w.-]+$/, "clustering names use letters, digits, _ . -"),
    z.looseObject({
      file: z.string(),
      soft_file: z.string().optional(),
      K: z.number().int().positive("K must be a positive integer"),
      space: z.string().optional(),
      nmi: z.number().optional(),
      ami: z.number().optional(),
      ari: z.number().optional(),
    }),
  ),
});

export interface BundleSummary {
  readonly name: string;
  readonly n: number;
  readonly d: number;
  readonly classNames: string[];
  /** the bundle's reference labels file, when it has one (owner-only after import) */
  readonly labelsFile: string | null;
  readonly embeddingsFile: string;
  /** the space the surrogate trains on, when the bundle has several */
  readonly embeddingSpace: string | null;
  readonly itemKind: "image" | "text" | "none";
  readonly itemsFile: string | null;
  /** image paths of items, relative to the bundle */
  readonly imageFiles: string[];
  readonly clusterings: { name: string; k: number; file: string; softFile: string | null; space: string | null; origin: Record<string, unknown>; trueMetrics: Record<string, number> | null }[];
  readonly spaces: { name: string; d: number; file: string }[];
}

/** A path named by the manifest: inside the bundle, a regular file, not a link. */
async function bundleFile(dir: string, file: string, what: string): Promise<string> {
  if (path.isAbsolute(file)) throw new BundleError(`${what}: '${file}' is an absolute path; name files relative to the bundle folder.`);
  const root = path.resolve(dir);
  const full = path.resolve(root, file);
  if (!full.startsWith(root + path.sep)) throw new BundleError(`${what}: '${file}' leaves the bundle folder; keep every file inside it.`);
  const stat = await lstat(full).catch(() => null);
  if (!stat) throw new BundleError(`${what}: '${file}' is missing from the bundle.`);
  if (stat.isSymbolicLink()) throw new BundleError(`${what}: '${file}' is a symbolic link; copy the real file into the bundle.`);
  if (!stat.isFile()) throw new BundleError(`${what}: '${file}' is not a regular file.`);
  return full;
}

/** Refuses any symbolic link anywhere in the bundle folder (it could point outside). */
export async function assertNoLinks(dir: string, relative = ""): Promise<void> {
  for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
    const rel = path.join(relative, entry.name);
    if (entry.isSymbolicLink()) throw new BundleError(`'${rel}' is a symbolic link; bundles must hold real files only.`);
    if (entry.isDirectory()) await assertNoLinks(dir, rel);
  }
}

async function header(full: string, file: string, dtype: "float32" | "int32", shape: (number | null)[]): Promise<NpyFileHeader> {
  let h: NpyFileHeader;
  try {
    h = await readNpyFileHeader(full, file);
  } catch (error) {
    if (error instanceof NpyFormatError) throw new BundleError(error.message);
    throw error;
  }
  if (h.dtype !== dtype) throw new BundleError(`${file}: expected ${dtype}, found ${h.dtype}; save it with arr.astype(np.${dtype}).`);
  const shapeText = (s: readonly (number | null)[]) => `(${s.map((x) => x ?? "?").join(", ")})`;
  if (h.shape.length !== shape.length || shape.some((s, i) => s !== null && s !== h.shape[i])) {
    const hint = h.shape[0] !== shape[0] ? ` Every file must have one row per item (N = ${shape[0]} in manifest.json).` : "";
    throw new BundleError(`${file}: expected shape ${shapeText(shape)}, found ${shapeText(h.shape)}.${hint}`);
  }
  return h;
}

async function checkFinite(h: NpyFileHeader, file: string, d: number) {
  await forEachNpyChunk(h, d, (values, first) => {
    for (let i = 0; i < values.length; i++)
      if (!Number.isFinite(values[i])) {
        throw new BundleError(`${file}: item ${first + Math.floor(i / d)}, column ${i % d} is ${values[i]}; embeddings must be finite (fix or drop that item).`);
      }
  });
}

async function checkIds(h: NpyFileHeader, file: string, limit: number, what: string, advice: string) {
  await forEachNpyChunk(h, 1, (values, first) => {
    for (let i = 0; i < values.length; i++)
      if (values[i] < 0 || values[i] >= limit) throw new BundleError(`${file}: item ${first + i} has ${what} ${values[i]}, outside 0..${limit - 1}; ${advice}`);
  });
}

async function checkSoft(h: NpyFileHeader, file: string, k: number) {
  await forEachNpyChunk(h, k, (values, first) => {
    const fault = firstRowFault(values, k);
    if (fault && "value" in fault)
      throw new BundleError(`${file}: item ${first + fault.row} has probability ${fault.value} for cluster ${fault.column}; soft clusterings hold probabilities in [0, 1].`);
    if (fault)
      throw new BundleError(`${file}: row ${first + fault.row} sums to ${fault.sum.toFixed(6)}, not 1 (±${ROW_SUM_TOLERANCE}); normalise each row, e.g. p / p.sum(1, keepdims=True).`);
  });
}

const itemLine = z.union([z.strictObject({ id: z.union([z.string(), z.number()]), image: z.string().min(1) }), z.strictObject({ id: z.union([z.string(), z.number()]), text: z.string() })]);

async function checkItems(dir: string, file: string, full: string, n: number) {
  const ids = new Map<string, number>();
  const imageFiles: string[] = [];
  let kind: "image" | "text" | null = null;
  let line = 0;
  for await (const raw of readLines(full)) {
    line += 1;
    if (line > n) throw new BundleError(`${file}: has more than N = ${n} lines; write one line per item, in row order.`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new BundleError(`${file}: line ${line} is not JSON (${JSON.stringify(raw.slice(0, 60))}); each line must be an object like {"id": "...", "image": "images/00000.png"}.`);
    }
    const item = itemLine.safeParse(parsed);
    if (!item.success) throw new BundleError(`${file}: line ${line} must be {"id", "image"} or {"id", "text"}, found ${JSON.stringify(raw.slice(0, 80))}.`);
    const id = String(item.data.id);
    const previous = ids.get(id);
    if (previous !== undefined) throw new BundleError(`${file}: item id '${id}' appears on lines ${previous} and ${line}; item ids must be unique.`);
    ids.set(id, line);
    const lineKind = "image" in item.data ? "image" : "text";
    if (kind && kind !== lineKind) throw new BundleError(`${file}: line ${line} is ${lineKind} but earlier items are ${kind}; a bundle holds one kind of item.`);
    kind = lineKind;
    if ("image" in item.data) {
      await bundleFile(dir, item.data.image, `${file} line ${line}`);
      imageFiles.push(item.data.image);
    }
  }
  if (line !== n) throw new BundleError(`${file}: has ${line} lines but N = ${n}; write one line per item, in row order.`);
  return { kind: kind ?? "text", imageFiles };
}

/**
 * A clustering added to an existing project of N items: int32 [N] ids in 0..K-1 (K inferred as
 * max + 1 when not given), optionally with its float32 [N, K] soft version. `name` is how the
 * messages call the file.
 */
export async function validateClustering(file: { path: string; name: string }, n: number, k: number | undefined, soft?: { path: string; name: string }): Promise<{ k: number }> {
  const h = await header(file.path, file.name, "int32", [n]);
  let limit = k;
  if (limit === undefined) {
    let max = -1;
    await forEachNpyChunk(h, 1, (values, first) => {
      for (let i = 0; i < values.length; i++) {
        if (values[i] < 0) throw new BundleError(`${file.name}: item ${first + i} has cluster id ${values[i]}; cluster ids are 0..K-1.`);
        if (values[i] > max) max = values[i];
      }
    });
    limit = max + 1;
  }
  await checkIds(h, file.name, limit, "cluster id", `cluster ids must lie in 0..K-1 (K = ${limit}).`);
  if (soft) await checkSoft(await header(soft.path, soft.name, "float32", [n, limit]), soft.name, limit);
  return { k: limit };
}

export async function validateBundle(dir: string): Promise<BundleSummary> {
  await assertNoLinks(dir);
  const manifestPath = await bundleFile(dir, "manifest.json", "bundle");
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(manifestPath, "utf8"));
  } catch (error) {
    throw new BundleError(`manifest.json is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BundleError(`manifest.json: ${issue.path.join(".") || "top level"}: ${issue.message}`);
  }
  const manifest = parsed.data;
  const n = manifest.N;

  const embeddingsFile = manifest.embeddings ?? "embeddings.npy";
  const embeddings = await header(await bundleFile(dir, embeddingsFile, "embeddings"), embeddingsFile, "float32", [n, manifest.D ?? null]);
  const d = embeddings.shape[1];
  await checkFinite(embeddings, embeddingsFile, d);

  const spaces: BundleSummary["spaces"] = [];
  let embeddingSpace: string | null = null;
  for (const [name, space] of Object.entries(manifest.spaces ?? {})) {
    const h = await header(await bundleFile(dir, space.file, `space '${name}'`), space.file, "float32", [n, space.D]);
    if (path.normalize(space.file) !== path.normalize(embeddingsFile)) await checkFinite(h, space.file, space.D);
    else embeddingSpace = name;
    spaces.push({ name, d: space.D, file: space.file });
  }

  let classNames = manifest.class_names ?? [];
  let labelsFile: string | null = null;
  const labelsName = manifest.labels ?? "labels.npy";
  const labelsFull = await bundleFile(dir, labelsName, "labels").catch((error) => {
    if (manifest.labels) throw error; // named in the manifest: it must be there
    return null;
  });
  if (labelsFull) {
    const h = await header(labelsFull, labelsName, "int32", [n]);
    let max = -1;
    await forEachNpyChunk(h, 1, (values, first) => {
      for (let i = 0; i < values.length; i++) {
        if (values[i] < 0) throw new BundleError(`${labelsName}: item ${first + i} has label ${values[i]}; reference labels are class ids 0..C-1.`);
        if (values[i] > max) max = values[i];
      }
    });
    if (classNames.length && max >= classNames.length)
      throw new BundleError(`${labelsName}: label ${max} but class_names lists ${classNames.length} classes; add the missing names to manifest.json.`);
    if (!classNames.length) classNames = Array.from({ length: max + 1 }, (_, i) => String(i));
    labelsFile = labelsName;
  }

  const clusterings: BundleSummary["clusterings"] = [];
  if (Object.keys(manifest.clusterings).length === 0) throw new BundleError("manifest.json: clusterings is empty; a bundle needs at least one test clustering.");
  for (const [name, entry] of Object.entries(manifest.clusterings)) {
    const { file, soft_file, K, space, nmi, ami, ari, ...origin } = entry;
    if (space && !(manifest.spaces ?? {})[space]) throw new BundleError(`manifest.json: clustering '${name}' names space '${space}', which spaces does not list.`);
    await checkIds(await header(await bundleFile(dir, file, `clustering '${name}'`), file, "int32", [n]), file, K, "cluster id", `cluster ids must lie in 0..K-1 (K = ${K} in manifest.json).`);
    if (soft_file) await checkSoft(await header(await bundleFile(dir, soft_file, `clustering '${name}'`), soft_file, "float32", [n, K]), soft_file, K);
    const trueMetrics = Object.fromEntries(Object.entries({ nmi, ami, ari }).filter(([, v]) => typeof v === "number")) as Record<string, number>;
    clusterings.push({ name, k: K, file, softFile: soft_file ?? null, space: space ?? null, origin, trueMetrics: Object.keys(trueMetrics).length ? trueMetrics : null });
  }

  let itemKind: BundleSummary["itemKind"] = "none";
  let imageFiles: string[] = [];
  if (manifest.items) {
    const items = await checkItems(dir, manifest.items, await bundleFile(dir, manifest.items, "items"), n);
    itemKind = items.kind;
    imageFiles = items.imageFiles;
  }

  return {
    name: manifest.name,
    n,
    d,
    classNames,
    labelsFile,
    embeddingsFile,
    embeddingSpace,
    itemKind,
    itemsFile: manifest.items ?? null,
    imageFiles,
    clusterings,
    spaces,
  };
}
