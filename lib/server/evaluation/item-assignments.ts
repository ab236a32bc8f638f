/**
 * Each item's cluster under a clustering, and its class as the estimates see it: a finished task's
 * label (its majority, or the owner's resolution) on labeled items, the latest round's pseudo-label
 * elsewhere. The contingency view counts these; the item list filters by them.
 */
import { db } from "../db";
import { notFound } from "../errors";
import { majority } from "../labeling/labels";
import { readAssignments } from "../project-data/arrays";
import { readRoundResults } from "../project-data/round-files";

type ProjectFiles = { dataPath: string; n: number };

/** A clustering of the project by name, with its cluster per item; 404 when there is none. */
export async function clusterAssignments(projectId: string, project: { dataPath: string }, name: string) {
  const clustering = await db().clustering.findUnique({ where: { projectId_name: { projectId, name } } });
  if (!clustering) throw notFound(`This project has no clustering named ${name}.`);
  return { name: clustering.name, k: clustering.k, assignments: await readAssignments(project, clustering, { shared: true }) };
}

/** The latest finished round with a results file [N x 2]: class (label or pseudo-label, -1 none), confidence. */
export async function latestRoundResults(projectId: string, project: { dataPath: string }) {
  const round = await db().round.findFirst({ where: { projectId, status: "done", resultsFile: { not: null } }, orderBy: { index: "desc" } });
  if (!round) return null;
  return { round: round.index, results: await readRoundResults(project, round.resultsFile!) };
}

export interface ItemClasses {
  /** where the classes come from: the latest round (labels + pseudo-labels) or, before any, the labels alone */
  source: { kind: "round"; round: number } | { kind: "labels"; round: null };
  /** class per item, -1 where none */
  classes: Int32Array;
  /** 1 where the class is a human label */
  labeled: Uint8Array;
  /** the surrogate's confidence in a pseudo-label (NaN on labeled items and before any round) */
  confidence: Float32Array;
}

/**
 * With a round, the labeled items are those whose labels it used (it froze them), so labeled and
 * pseudo-labeled items split as in its results file; labels given since wait for the next round.
 */
export async function itemClasses(projectId: string, project: ProjectFiles): Promise<ItemClasses> {
  const latest = await latestRoundResults(projectId, project);
  const fromLabels = await labelClasses(projectId, project.n, latest?.round ?? null);
  const confidence = new Float32Array(project.n).fill(Number.NaN);
  if (!latest) return { source: { kind: "labels", round: null }, ...fromLabels, confidence };
  const classes = new Int32Array(project.n);
  for (let i = 0; i < project.n; i++) {
    classes[i] = Math.round(latest.results[i * 2]);
    if (!fromLabels.labeled[i] && classes[i] >= 0) confidence[i] = latest.results[i * 2 + 1];
  }
  return { source: { kind: "round", round: latest.round }, classes, labeled: fromLabels.labeled, confidence };
}

/** The majority (or resolved) class of every finished task; with `round`, only the labels that round used. */
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
