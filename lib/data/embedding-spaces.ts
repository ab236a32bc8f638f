/**
 * A bundle's embedding spaces with the clusterings to compare across them: manifest.spaces
 * (NAME -> {file, D}) and each clustering's `space`, as in shared data/digits-spaces. A bundle
 * without `spaces` has one space, its embeddings, named "embeddings". Shapes and cluster ids are
 * checked; the rest of the bundle (items, soft clusterings) is not read.
 */
import { readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { BundleError } from "./bundle";
import { readNpy } from "./npy";

export const DEFAULT_SPACE = "embeddings";

export interface SpacePoints {
  readonly name: string;
  /** N x D row-major */
  readonly x: Float32Array;
  readonly d: number;
}

export interface SpaceClustering {
  readonly name: string;
  readonly labels: Int32Array;
  readonly space: string | null;
  /** the manifest's true NMI, when the bundle records it */
  readonly trueNmi: number | null;
}

export interface SpacesBundle {
  readonly n: number;
  readonly spaces: readonly SpacePoints[];
  readonly clusterings: readonly SpaceClustering[];
}

interface SpacesManifest {
  N: number;
  embeddings?: string;
  spaces?: Record<string, { file: string; D?: number }>;
  clusterings?: Record<string, { file: string; space?: string; nmi?: number }>;
}

function inside(dir: string, file: string): string {
  const root = resolve(dir);
  const path = resolve(root, file);
  if (!path.startsWith(root + sep)) throw new BundleError(`${file}: path leaves the bundle folder`);
  return path;
}

async function readMatrix(dir: string, file: string, n: number): Promise<{ x: Float32Array; d: number }> {
  const a = await readNpy(inside(dir, file));
  if (a.dtype !== "float32" || a.shape.length !== 2 || a.shape[0] !== n)
    throw new BundleError(`${file}: expected float32 of shape (${n}, D), found ${a.dtype} (${a.shape.join(", ")})`);
  return { x: a.data as Float32Array, d: a.shape[1] };
}

/** Reads the spaces; `spaceNames` limits which (default all), `withClusterings` false skips them. */
export async function loadSpacesBundle(dir: string, options: { spaceNames?: readonly string[]; withClusterings?: boolean } = {}): Promise<SpacesBundle> {
  let manifest: SpacesManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf-8")) as SpacesManifest;
  } catch (error) {
    throw new BundleError(`${join(dir, "manifest.json")}: ${(error as Error).message}`);
  }
  const n = manifest.N;
  if (!Number.isInteger(n) || n <= 0) throw new BundleError(`${dir}/manifest.json: N must be a positive integer`);
  const entries: [string, string][] = manifest.spaces
    ? Object.entries(manifest.spaces).map(([name, s]) => [name, s.file])
    : [[DEFAULT_SPACE, manifest.embeddings ?? "embeddings.npy"]];
  const wanted = options.spaceNames ?? entries.map(([name]) => name);
  for (const name of wanted)
    if (!entries.some(([e]) => e === name)) throw new BundleError(`${dir}: no space '${name}' (has ${entries.map(([e]) => e).join(", ")})`);
  const spaces: SpacePoints[] = [];
  for (const [name, file] of entries) if (wanted.includes(name)) spaces.push({ name, ...(await readMatrix(dir, file, n)) });

  const clusterings: SpaceClustering[] = [];
  if (options.withClusterings !== false)
    for (const [name, c] of Object.entries(manifest.clusterings ?? {})) {
      const a = await readNpy(inside(dir, c.file));
      if (a.dtype !== "int32" || a.shape.length !== 1 || a.shape[0] !== n)
        throw new BundleError(`${c.file}: expected int32 of shape (${n}), found ${a.dtype} (${a.shape.join(", ")})`);
      const labels = a.data as Int32Array;
      for (let i = 0; i < n; i++) if (labels[i] < 0) throw new BundleError(`${c.file}: item ${i} has negative cluster ${labels[i]}`);
      const space = c.space ?? (manifest.spaces ? null : DEFAULT_SPACE);
      clusterings.push({ name, labels, space, trueNmi: typeof c.nmi === "number" ? c.nmi : null });
    }
  return { n, spaces, clusterings };
}
