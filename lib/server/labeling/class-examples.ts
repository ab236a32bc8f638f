import { z } from "zod";
import { db } from "../db";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";
import { itemView, type ItemView } from "./item-view";
import { clusterClassCounts } from "./class-hints";

/**
 * A few labeled examples per class for the workspace's example strip: the newest items members
 * labeled with each class in this app. Only answers given here count; the bundle's reference
 * labels (labels.npy) are owner-only (ARCHITECTURE.md) and never shown to annotators. Where the
 * project labels by "verify", the members' labels counted per cluster come too (class-hints.ts).
 */
export const classExamplesQuery = z.object({ perClass: z.coerce.number().int().min(1, "perClass is at least 1").max(12, "perClass is at most 12").default(3) });

export async function classExamples(
  user: SessionUser,
  projectId: string,
  perClass: number,
): Promise<{ examples: { classIndex: number; items: ItemView[] }[]; clusterCounts?: [number, number, number][] }> {
  await requireProjectRole(user, projectId);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { mode: true, labelBy: true, dataPath: true } });
  const classes = await db().referenceClass.findMany({ where: { projectId }, orderBy: { index: "asc" }, select: { index: true } });
  const examples = [];
  for (const { index: classIndex } of classes) {
    // One query per class with a limit: cheap at a million labels, unlike sorting them all.
    const labels = await db().label.findMany({
      where: { projectId, kind: "label", withdrawn: false, classIndex },
      orderBy: { createdAt: "desc" },
      distinct: ["taskId"],
      take: perClass,
      select: { task: { select: { itemIndex: true } } },
    });
    const indexes = [...new Set(labels.map((l) => l.task.itemIndex))];
    const items = await db().item.findMany({ where: { projectId, index: { in: indexes } }, select: { index: true, externalId: true, text: true, image: true } });
    const byIndex = new Map(items.map((i) => [i.index, i]));
    examples.push({
      classIndex,
      items: indexes.flatMap((index) => {
        const item = byIndex.get(index);
        return item ? [itemView(projectId, index, item)] : [];
      }),
    });
  }
  if (project.mode !== "clusterwise" || project.labelBy !== "verify") return { examples };
  return { examples, clusterCounts: await clusterClassCounts(projectId, project) };
}
