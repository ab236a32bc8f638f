import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { BundleManifest } from "@/lib/data/bundle";
import { projectFile, type ProjectFolder } from "./paths";

/**
 * The project's copy of its bundle's manifest.json, the one place it is read. The import
 * validated it; here only the fields the server uses are checked, the rest passes through.
 */
const storedManifest = z.looseObject({
  embeddings: z.string().optional(),
  labels: z.string().optional(),
});

export async function readManifest(project: ProjectFolder): Promise<BundleManifest> {
  const file = projectFile(project, "manifest.json");
  const parsed = storedManifest.safeParse(JSON.parse(await readFile(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data as BundleManifest;
}

/** The main embeddings' file (the bundle format's default name when the manifest names none). */
export async function embeddingsFile(project: ProjectFolder): Promise<string> {
  return (await readManifest(project)).embeddings ?? "embeddings.npy";
}

/** The reference labels' file (owner-only data, ARCHITECTURE.md). */
export async function referenceLabelsFile(project: ProjectFolder): Promise<string> {
  return (await readManifest(project)).labels ?? "labels.npy";
}
