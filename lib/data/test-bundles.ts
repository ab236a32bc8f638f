/**
 * Test support: small, valid dataset bundles written programmatically (shared data/README.md
 * format), which a test then breaks in exactly one place. Values are deterministic so that two
 * bundles made with the same spec are byte-identical.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { encodeNpy } from "./npy";

export interface TestBundleSpec {
  n?: number;
  d?: number;
  /** clusters of the hard test clustering "kmeans" */
  k?: number;
  items?: "none" | "text" | "image";
  /** also write clusterings/kmeans.soft.npy */
  soft?: boolean;
  /** write labels.npy with this many classes (0 = none) */
  classes?: number;
  name?: string;
}

/** A 1x1 transparent PNG: image items need real files, the validator only checks they exist. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

export function embeddingValues(n: number, d: number): Float32Array {
  const values = new Float32Array(n * d);
  for (let i = 0; i < values.length; i++) values[i] = Math.sin(i * 0.37) * 3;
  return values;
}

export function clusterIds(n: number, k: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => (i * 7) % k);
}

/** Writes a valid bundle into `dir` (created) and returns its manifest. */
export async function writeTestBundle(dir: string, spec: TestBundleSpec = {}) {
  const { n = 12, d = 4, k = 3, items = "text", soft = false, classes = 3, name = "test-bundle" } = spec;
  await mkdir(path.join(dir, "clusterings"), { recursive: true });
  await writeFile(path.join(dir, "embeddings.npy"), encodeNpy(embeddingValues(n, d), [n, d]));
  await writeFile(path.join(dir, "clusterings", "kmeans.npy"), encodeNpy(clusterIds(n, k), [n]));
  const clustering: Record<string, unknown> = { file: "clusterings/kmeans.npy", K: k, algorithm: "test", nmi: 0.5 };
  if (soft) {
    const probs = new Float32Array(n * k);
    const ids = clusterIds(n, k);
    for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) probs[i * k + c] = c === ids[i] ? 0.8 : 0.2 / (k - 1);
    await writeFile(path.join(dir, "clusterings", "kmeans.soft.npy"), encodeNpy(probs, [n, k]));
    clustering.soft_file = "clusterings/kmeans.soft.npy";
  }
  const manifest: Record<string, unknown> = { name, N: n, D: d, embeddings: "embeddings.npy", clusterings: { kmeans: clustering } };
  if (classes > 0) {
    await writeFile(path.join(dir, "labels.npy"), encodeNpy(Int32Array.from({ length: n }, (_, i) => i % classes), [n]));
    manifest.labels = "labels.npy";
    manifest.class_names = Array.from({ length: classes }, (_, c) => `class ${c}`);
  }
  if (items !== "none") {
    const lines: string[] = [];
    if (items === "image") await mkdir(path.join(dir, "images"), { recursive: true });
    for (let i = 0; i < n; i++) {
      const id = `item-${i}`;
      if (items === "image") {
        const image = `images/${String(i).padStart(5, "0")}.png`;
        await writeFile(path.join(dir, image), TINY_PNG);
        lines.push(JSON.stringify({ id, image }));
      } else lines.push(JSON.stringify({ id, text: `text of item ${i}` }));
    }
    await writeFile(path.join(dir, "items.jsonl"), lines.join("\n") + "\n");
    manifest.items = "items.jsonl";
  }
  await writeManifest(dir, manifest);
  return manifest;
}

export async function writeManifest(dir: string, manifest: Record<string, unknown>) {
  await writeFile(path.join(dir, "manifest.json"), JSON.stringify(manifest, null, 1));
}

/** A .npy file with any header dict values (wrong dtype, big-endian, ...) and raw payload bytes. */
export function rawNpy(descr: string, shape: readonly number[], payload: Uint8Array): Uint8Array {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  header += " ".repeat((64 - ((10 + header.length + 1) % 64)) % 64) + "\n";
  const out = new Uint8Array(10 + header.length + payload.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(payload, 10 + header.length);
  return out;
}
