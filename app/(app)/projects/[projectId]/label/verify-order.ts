import { anchorOrder } from "@/lib/cereal/pairwise/class-verification";
import type { TaskHint } from "@/lib/server/labeling/class-hints";

/** [cluster, class, labels] rows, as the examples route sends them where the project labels by "verify" */
export type ClusterCountRows = readonly (readonly [number, number, number])[];

/** class -> labels, per cluster */
export function countsByCluster(rows: ClusterCountRows): Map<number, Map<number, number>> {
  const byCluster = new Map<number, Map<number, number>>();
  for (const [cluster, classIndex, labels] of rows) {
    const counts = byCluster.get(cluster) ?? new Map<number, number>();
    counts.set(classIndex, (counts.get(classIndex) ?? 0) + labels);
    byCluster.set(cluster, counts);
  }
  return byCluster;
}

/**
 * The order the one-class-at-a-time view asks "same class?" in (issue #25), as class-verification.ts's `top` order
 * measured it: the item's suggested class (the latest round's pseudo-label) first, then the classes most labeled in
 * the item's cluster, then the rest in the project's order. Every class of the project is asked, named ones not yet
 * labeled too (last, unless suggested).
 */
export function verifyOrder(classes: readonly number[], hint: TaskHint | null, byCluster: ReadonlyMap<number, ReadonlyMap<number, number>>): number[] {
  const suggested = hint?.suggestedClass ?? null;
  const oneHot = suggested !== null && classes.includes(suggested) ? Float64Array.from({ length: Math.max(...classes) + 1 }, (_, c) => (c === suggested ? 1 : 0)) : null;
  const counts = hint?.cluster === null || hint?.cluster === undefined ? undefined : byCluster.get(hint.cluster);
  return anchorOrder(classes, oneHot, counts, "top");
}
