import { z } from "zod";
import { readNpy } from "@/lib/data/npy";
import { apMetric, asTable } from "@/lib/metrics";
import { db } from "./db";
import { badRequest, notFound } from "./errors";
import { majority } from "./labels";
import { requireProjectRole } from "./project-access";
import { projectFile } from "./project-files";
import type { SessionUser } from "./session";

export const contingencyQuery = z.object({ clustering: z.string().min(1, "Name a clustering: ?clustering=NAME.") });

/**
 * The contingency table a clustering is estimated from (owner): reference classes (rows, the
 * lib/metrics convention) x clusters, counted over the labels plus the latest round's
 * pseudo-labels (its results file holds both); before any round, over the labels alone. Each
 * class's largest cell is the AP metric's argmax L_i, the cells the dashboard boxes.
 */
export async function contingencyView(user: SessionUser, projectId: string, clusteringName: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { dataPath: true, n: true, mode: true, classes: { orderBy: { index: "asc" }, select: { index: true, name: true } } },
  });
  if (project.mode === "pairwise") throw badRequest("A pairwise project has no class labels to cross with clusters.");
  const clustering = await db().clustering.findUnique({ where: { projectId_name: { projectId, name: clusteringName } } });
  if (!clustering) throw notFound(`This project has no clustering named ${clusteringName}.`);
  const assignments = (await readNpy(projectFile(project, clustering.file))).data as Int32Array;

  const round = await db().round.findFirst({ where: { projectId, status: "done", resultsFile: { not: null } }, orderBy: { index: "desc" } });
  const fromLabels = await labelClasses(projectId, project.n, round?.index ?? null);
  const classOf = round ? { classes: await roundClasses(project, round.resultsFile!), labeled: fromLabels.labeled } : fromLabels;
  const C = project.classes.length;
  const K = clustering.k;
  const cells = Array.from({ length: C }, () => new Array<number>(K).fill(0));
  let labeled = 0;
  let pseudo = 0;
  for (let i = 0; i < project.n; i++) {
    const c = classOf.classes[i];
    const k = assignments[i];
    if (c < 0 || c >= C || k < 0 || k >= K) continue;
    cells[c][k]++;
    if (classOf.labeled[i]) labeled++;
    else pseudo++;
  }
  const rowMaxima = cells.map((row) => {
    const max = Math.max(...row);
    return max > 0 ? row.flatMap((v, k) => (v === max ? [k] : [])) : [];
  });
  const { associativity, peakiness, ap } = apMetric(asTable(cells));
  return {
    clustering: clustering.name,
    k: K,
    classes: project.classes.map((c) => c.name),
    source: round ? { kind: "round" as const, round: round.index } : { kind: "labels" as const, round: null },
    labeled,
    pseudoLabeled: pseudo,
    cells,
    rowMaxima,
    associativity,
    peakiness,
    ap,
  };
}

/** A round's per-item results [N x 2]: class (label or pseudo-label, -1 none), confidence. */
async function roundClasses(project: { dataPath: string; n: number }, resultsFile: string) {
  const results = (await readNpy(projectFile(project, resultsFile))).data;
  const classes = new Int32Array(project.n);
  for (let i = 0; i < project.n; i++) classes[i] = Math.round(results[i * 2]);
  return classes;
}

/**
 * The majority (or resolved) class of every finished task; with `round`, only the labels that
 * round used (it froze them), so the labeled / pseudo-labeled split matches its results file.
 */
async function labelClasses(projectId: string, n: number, round: number | null) {
  const classes = new Int32Array(n).fill(-1);
  const labeled = new Uint8Array(n);
  const used = round === null ? {} : { usedByRound: { lte: round } };
  const tasks = await db().task.findMany({
    where: { projectId, done: true, itemIndexB: null, labels: { some: { withdrawn: false, ...used } } },
    include: { labels: { where: { withdrawn: false } } },
  });
  for (const task of tasks) {
    const value = task.resolvedClassIndex !== null ? String(task.resolvedClassIndex) : majority(task.labels);
    if (value === null) continue;
    classes[task.itemIndex] = Number(value);
    labeled[task.itemIndex] = 1;
  }
  return { classes, labeled };
}
