import path from "node:path";
import { serverConfig } from "../config";

/**
 * Where a project's files live: `$CEREAL_DATA_DIR/projects/<id>/` holds the imported bundle
 * (embeddings, clusterings, spaces, items, images, reference labels) and `rounds/` the per-round
 * results. Paths stored in the database are relative to that folder. Only the project-data layer
 * and the import (which writes the folder) build paths into it.
 */
export type ProjectFolder = { readonly dataPath: string };

export function projectDir(project: ProjectFolder): string {
  return path.join(serverConfig().dataDir, project.dataPath);
}

export function projectFile(project: ProjectFolder, relative: string): string {
  const root = projectDir(project);
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) throw new Error(`${relative} leaves the project folder`);
  return full;
}

/** The folder every project's folder lives in (`projects/<id>`); a backup copies it whole. */
export function projectsRoot(): string {
  return path.join(serverConfig().dataDir, "projects");
}

/** Temporary uploads and staging folders; removed after each import. */
export function stagingDir(): string {
  return path.join(serverConfig().dataDir, "staging");
}
