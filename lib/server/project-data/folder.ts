import { createReadStream } from "node:fs";
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { projectDir, projectFile, type ProjectFolder } from "./paths";

/**
 * Whole files of a project folder: written atomically (a killed process never leaves half a
 * file), read as JSON or streamed, and the folder removed with its project.
 */

/**
 * Writes a file atomically: under a temporary name of its own in the same folder (this process,
 * a random part: two workers writing the same round file, a round taken over from a worker that
 * was only slow, never write into one temporary file), flushed, then renamed into place, so a
 * reader, or a round resumed on another worker, sees the old file or the new one, never half of
 * one. The folder is created when missing.
 */
export async function writeFileAtomically(full: string, data: Uint8Array | string) {
  await mkdir(path.dirname(full), { recursive: true });
  const temporary = `${full}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    const file = await open(temporary, "w");
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, full);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** A project file (round results, rankings, evidence, job results), written atomically. */
export async function writeProjectFile(project: ProjectFolder, relative: string, data: Uint8Array | string) {
  await writeFileAtomically(projectFile(project, relative), data);
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
