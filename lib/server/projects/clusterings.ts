/**
 * A test clustering added to an existing project after import (upload or `cereal add-clustering`).
 * It is validated like an import's clusterings, copied into the project folder under added/, and
 * only then recorded, so a refused file leaves nothing behind. Estimates cover it from the next
 * round without new labels.
 */
import { z } from "zod";
import { BundleError } from "@/lib/data/bundle";
import { validateClustering } from "@/lib/data/validate-bundle";
import { db } from "../db";
import { AppError, badRequest, conflict } from "../errors";
import { requireProjectRole } from "../auth/project-access";
import { copyIntoProject, removeProjectFiles } from "../project-data/folder";
import type { SessionUser } from "../auth/session";
import { receiveMultipart, withStaging } from "../imports/uploads";

export const addClusteringInput = z.object({
  name: z.string().trim().regex(/^[\w.-]{1,100}$/, "Name the clustering with letters, digits, _ . - (at most 100)."),
  k: z.coerce.number().int().positive("K must be a positive integer.").optional(),
  description: z.string().max(2000).default(""),
});
export type AddClusteringInput = z.input<typeof addClusteringInput>;

/** Adds a clustering from .npy files on disk (the hard file, and optionally its soft version). */
export async function addClustering(projectId: string, rawInput: AddClusteringInput, files: { file: string; soft?: string }) {
  const input = addClusteringInput.parse(rawInput);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, n: true, dataPath: true } });
  if (await db().clustering.findUnique({ where: { projectId_name: { projectId, name: input.name } } }))
    throw conflict(`This project already has a clustering named '${input.name}'; choose another name.`);
  let k: number;
  try {
    ({ k } = await validateClustering(
      { path: files.file, name: `${input.name}.npy` },
      project.n,
      input.k,
      files.soft ? { path: files.soft, name: `${input.name}.soft.npy` } : undefined,
    ));
  } catch (error) {
    if (error instanceof BundleError) throw badRequest(error.message);
    throw error;
  }
  const file = `added/${input.name}.npy`;
  const softFile = files.soft ? `added/${input.name}.soft.npy` : null;
  try {
    await copyIntoProject(project, file, files.file);
    if (files.soft && softFile) await copyIntoProject(project, softFile, files.soft);
    const clustering = await db().clustering.create({
      data: { projectId, name: input.name, k, file, softFile, origin: { added: true, description: input.description } },
    });
    return { id: clustering.id, name: clustering.name, k, soft: softFile !== null };
  } catch (error) {
    await removeProjectFiles(project, softFile ? [file, softFile] : [file]);
    throw error;
  }
}

/** The upload route's version: multipart with fields name, k (optional) and files "file", "soft" (optional). */
export async function addClusteringUpload(user: SessionUser, projectId: string, request: Request) {
  await requireProjectRole(user, projectId, "OWNER");
  return withStaging(async (dir) => {
    const { fields, files } = await receiveMultipart(request, dir, (field) => {
      if (field === "file") return "clustering.npy";
      if (field === "soft") return "soft.npy";
      throw badRequest(`The upload has a part '${field}'; send the clustering as 'file' and its soft version as 'soft'.`);
    });
    const hard = files.find((f) => f.field === "file");
    if (!hard) throw new AppError("bad_request", "The upload has no clustering file; send an int32 .npy of N cluster ids as 'file'.");
    return addClustering(projectId, addClusteringInput.parse(fields), { file: hard.path, soft: files.find((f) => f.field === "soft")?.path });
  });
}
