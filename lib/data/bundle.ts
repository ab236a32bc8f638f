/**
 * Reads a dataset bundle (shared data/README.md): manifest.json, embeddings.npy, optional
 * labels.npy and the test clusterings (hard clusterings/NAME.npy, optional NAME.soft.npy).
 * Checks only what a reader needs to be safe (shapes agree, ids in range); full import
 * validation is the import issue's job.
 */
import { readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { NpyFormatError, readNpy, type NpyArray } from "./npy";

export interface ManifestClustering {
  readonly file: string;
  readonly soft_file?: string;
  readonly K: number;
  readonly nmi?: number;
  readonly ami?: number;
  readonly ari?: number;
  readonly [key: string]: unknown;
}

export interface BundleManifest {
  readonly name: string;
  readonly N: number;
  readonly D: number;
  readonly class_names?: string[];
  readonly embeddings?: string;
  readonly labels?: string;
  readonly items?: string;
  readonly clusterings: Record<string, ManifestClustering>;
  readonly [key: string]: unknown;
}

export interface BundleClustering {
  readonly name: string;
  /** cluster id of every item, 0..k-1 */
  readonly assignments: Int32Array;
  readonly k: number;
  /** optional soft version f(c|x), N x k row-major */
  readonly soft?: Float32Array;
}

export interface Bundle {
  readonly dir: string;
  readonly manifest: BundleManifest;
  readonly n: number;
  readonly d: number;
  /** N x D row-major */
  readonly embeddings: Float32Array;
  /** reference labels 0..C-1, when the bundle has them */
  readonly labels: Int32Array | null;
  readonly numClasses: number;
  readonly clusterings: BundleClustering[];
}

export class BundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BundleError";
  }
}

/** resolves a manifest path inside the bundle folder; refuses paths that leave it */
function inside(dir: string, file: string): string {
  const root = resolve(dir);
  const path = resolve(root, file);
  if (path !== root && !path.startsWith(root + sep)) throw new BundleError(`${file}: path leaves the bundle folder`);
  return path;
}

async function readTyped(dir: string, file: string, dtype: "float32" | "int32", shape: number[]): Promise<NpyArray> {
  let array: NpyArray;
  try {
    array = await readNpy(inside(dir, file));
  } catch (error) {
    if (error instanceof NpyFormatError || error instanceof BundleError) throw error;
    throw new BundleError(`${join(dir, file)}: ${(error as Error).message}`);
  }
  if (array.dtype !== dtype) throw new BundleError(`${file}: expected ${dtype}, found ${array.dtype}`);
  if (array.shape.length !== shape.length || array.shape.some((s, i) => s !== shape[i]))
    throw new BundleError(`${file}: expected shape (${shape.join(", ")}), found (${array.shape.join(", ")})`);
  return array;
}

function checkIds(ids: Int32Array, limit: number, file: string, what: string): void {
  for (let i = 0; i < ids.length; i++)
    if (ids[i] < 0 || ids[i] >= limit) throw new BundleError(`${file}: item ${i} has ${what} ${ids[i]}, outside 0..${limit - 1}`);
}

export interface LoadBundleOptions {
  /** clusterings to load (default: all in the manifest) */
  readonly clusterings?: readonly string[];
}

export async function loadBundle(dir: string, options: LoadBundleOptions = {}): Promise<Bundle> {
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf-8")) as BundleManifest;
  } catch (error) {
    throw new BundleError(`${join(dir, "manifest.json")}: ${(error as Error).message}`);
  }
  const n = manifest.N;
  const d = manifest.D;
  if (!Number.isInteger(n) || n <= 0 || !Number.isInteger(d) || d <= 0)
    throw new BundleError(`${dir}/manifest.json: N and D must be positive integers`);
  if (!manifest.clusterings || typeof manifest.clusterings !== "object")
    throw new BundleError(`${dir}/manifest.json: no clusterings`);

  const embeddings = await readTyped(dir, manifest.embeddings ?? "embeddings.npy", "float32", [n, d]);

  let labels: Int32Array | null = null;
  let numClasses = manifest.class_names?.length ?? 0;
  const labelsFile = manifest.labels ?? "labels.npy";
  // a path inside the user's bundle, known only at run time: nothing for the build to trace
  const hasLabels = await readFile(/*turbopackIgnore: true*/ inside(dir, labelsFile)).then(
    () => true,
    () => false,
  );
  if (hasLabels) {
    labels = (await readTyped(dir, labelsFile, "int32", [n])).data as Int32Array;
    let max = -1;
    for (let i = 0; i < n; i++) if (labels[i] > max) max = labels[i];
    numClasses = Math.max(numClasses, max + 1);
    checkIds(labels, numClasses, labelsFile, "label");
  }
  if (numClasses <= 0) throw new BundleError(`${dir}: no class_names in the manifest and no labels.npy`);

  const names = options.clusterings ?? Object.keys(manifest.clusterings);
  const clusterings: BundleClustering[] = [];
  for (const name of names) {
    const entry = manifest.clusterings[name];
    if (!entry) throw new BundleError(`${dir}: no clustering '${name}' (has ${Object.keys(manifest.clusterings).join(", ")})`);
    const assignments = (await readTyped(dir, entry.file, "int32", [n])).data as Int32Array;
    let k = entry.K;
    if (!Number.isInteger(k) || k <= 0) {
      k = 0;
      for (let i = 0; i < n; i++) k = Math.max(k, assignments[i] + 1);
    }
    checkIds(assignments, k, entry.file, "cluster");
    const soft = entry.soft_file ? ((await readTyped(dir, entry.soft_file, "float32", [n, k])).data as Float32Array) : undefined;
    clusterings.push({ name, assignments, k, soft });
  }

  return { dir, manifest, n, d, embeddings: embeddings.data as Float32Array, labels, numClasses, clusterings };
}
