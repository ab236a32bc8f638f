import { z } from "zod";
import { lockProject, transaction } from "../db";
import { conflict } from "../errors";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

/**
 * Open-mode classes: in a project without fixed reference classes, any member may add a class
 * while labeling (the workspace's N key). The new class takes the next index, so labels and
 * pseudo-labels keep using 0..C-1 in creation order.
 */
export const addClassInput = z.object({
  name: z.string().trim().min(1, "Give the class a name.").max(80, "A class name has at most 80 characters."),
  description: z.string().trim().max(500, "A description has at most 500 characters.").default(""),
});

export async function addClass(user: SessionUser, projectId: string, input: z.infer<typeof addClassInput>) {
  await requireProjectRole(user, projectId);
  return transaction(async (tx) => {
    await lockProject(tx, projectId);
    const project = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { classMode: true } });
    if (project.classMode !== "open") throw conflict("This project has a fixed set of classes; ask its owner to change them.");
    // Names compare case-insensitively: "Shirt" and "shirt" would split one class in two.
    const classes = await tx.referenceClass.findMany({ where: { projectId }, select: { index: true, name: true } });
    const same = classes.find((c) => c.name.toLowerCase() === input.name.toLowerCase());
    if (same) throw conflict(`A class named "${same.name}" already exists; label with it instead.`);
    const index = classes.reduce((max, c) => Math.max(max, c.index), -1) + 1;
    const created = await tx.referenceClass.create({
      data: { projectId, index, name: input.name, description: input.description, createdById: user.id },
      select: { index: true, name: true, description: true },
    });
    return { class: created };
  });
}
