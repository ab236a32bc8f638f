import { createReadStream } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { projectDir, projectFile, type ProjectFolder } from "./paths";

/**
 * Whole files of a project folder: written atomically (a killed process never leaves half a
 * file), read as JSON or streamed, and the folder removed with its project.
 */

/** Written under a temporary name and renamed into place; the file's folder is created when missing. */
export async function writeProjectFile(project: ProjectFolder, relative: string, data: Uint8Array | string) {
  const full = projectFile(project, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(`${full}.tmp`, data);
  await rename(`${full}.tmp`, full);
}

export async function readProjectJson<T>(project: ProjectFolder, relative: string): Promise<T> {
  return JSON.parse(await readFile(projectFile(project, relative), "utf8")) as T;
}

/** A file of the bundle as a stream (exports, item images); a path leaving the folder throws. */
export function projectFileStream(project: ProjectFolder, relative: string) {
  return createReadStream(projectFile(project, relative));
}

/** The absolute path of a bundle file, for code that hands it to a library reading by path. */
export function projectFilePath(project: ProjectFolder, relative: string): string {
  return projectFile(project, relative);
}

export async function removeProjectFolder(project: ProjectFolder) {
  await rm(projectDir(project), { recursive: true, force: true });
}

/** Copies a staged file into the folder (a clustering added after import). */
export async function copyIntoProject(project: ProjectFolder, relative: string, source: string) {
  const full = projectFile(project, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await copyFile(source, full);
}

export async function removeProjectFiles(project: ProjectFolder, relatives: readonly string[]) {
  for (const relative of relatives) await rm(projectFile(project, relative), { force: true });
}
