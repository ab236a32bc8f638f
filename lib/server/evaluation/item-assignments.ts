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

type ProjectFiles = { dataPath: string };

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
  /** item index -> class of the items whose class is a human label */
  labeled: ReadonlyMap<number, number>;
  /** the class of item i, -1 where none */
  classOf(i: number): number;
  /** the surrogate's confidence in item i's pseudo-label (NaN on labeled items, items without a class and before any round) */
  confidence(i: number): number;
}

/**
 * With a round, the labeled items are those whose labels it used (it froze them), so labeled and
 * pseudo-labeled items split as in its results file, which holds both; labels given since wait for
 * the next round. Read per item from that file: no N-sized arrays per request (at 1M items the
 * contingency view allocated 21 MB per call, and the garbage collector's pauses set its p95).
 */
export async function itemClasses(projectId: string, project: ProjectFiles): Promise<ItemClasses> {
  const latest = await latestRoundResults(projectId, project);
  const labeled = await labelClasses(projectId, latest?.round ?? null);
  if (!latest) return { source: { kind: "labels", round: null }, labeled, classOf: (i) => labeled.get(i) ?? -1, confidence: () => Number.NaN };
  const results = latest.results;
  return {
    source: { kind: "round", round: latest.round },
    labeled,
    classOf: (i) => Math.round(results[i * 2]),
    confidence: (i) => (labeled.has(i) || results[i * 2] < 0 ? Number.NaN : results[i * 2 + 1]),
  };
}

/** The majority (or resolved) class of every finished task; with `round`, only the labels that round used. */
async function labelClasses(projectId: string, round: number | null): Promise<Map<number, number>> {
  const classes = new Map<number, number>();
  const used = round === null ? {} : { usedByRound: { lte: round } };
  const tasks = await db().task.findMany({
    where: { projectId, done: true, itemIndexB: null, labels: { some: { withdrawn: false, ...used } } },
    include: { labels: { where: { withdrawn: false } } },
  });
  for (const task of tasks) {
    const value = task.resolvedClassIndex !== null ? String(task.resolvedClassIndex) : majority(task.labels);
    if (value !== null) classes.set(task.itemIndex, Number(value));
  }
  return classes;
}
