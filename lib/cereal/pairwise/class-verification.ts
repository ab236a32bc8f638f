/**
 * Class labels recovered through pair answers (issue #25): an item's class is found by asking "same class as this
 * anchor?" against one anchor (a labeled item) of each class found so far, most likely class first, until an answer is
 * "same"; an item that is "different" from every anchor starts a new class and becomes its anchor. Metrics are
 * invariant to renaming classes, so the recovered ids (numbered in order of discovery) serve as labels, and the
 * clusterwise estimators and designs apply to the items as drawn: how a label is obtained does not change which items
 * were drawn or with what probability.
 *
 * What it costs: one answer for an item whose class is asked first, r for one whose class is the r-th asked, and as many
 * as there are classes found for a new class. The order (`VerificationOrder`): `model`, by the drawing model's p(.|x)
 * where one drew the item; `top`, the drawing model's most probable class first and the rest as without a model (what
 * an app that keeps only each item's argmax class can ask); `cluster`, never the model. Without a model (the seed batch),
 * the classes most often labeled within the item's cluster of the candidate clustering come first.
 */

export type VerificationOrder = "model" | "top" | "cluster";
export const VERIFICATION_ORDERS: readonly VerificationOrder[] = ["model", "top", "cluster"];

export interface VerificationStep {
  readonly row: number;
  /** pair answers the item's label took */
  readonly answers: number;
  /** whether the item started a new class (every answer was "different") */
  readonly newClass: boolean;
}

export interface VerificationInput {
  /** the drawn rows, in the order they are labeled */
  readonly rows: readonly number[];
  /** the true class of every row (the annotators' answers follow it) */
  readonly labels: ArrayLike<number>;
  /** a candidate clustering's cluster id of every row: the order before any model */
  readonly clusterOf: ArrayLike<number>;
  /** the drawing model's p(.|x) over the reference classes, or null where no model drew the row */
  readonly proba: (row: number) => ArrayLike<number> | null;
  /** how p(.|x) orders the anchors (default `model`) */
  readonly order?: VerificationOrder;
}

/**
 * The classes found so far, most likely first: by p(class | x) where a model is given (with `top`, only its most
 * probable class comes first), then by how often each class was labeled in the item's cluster; ties (and classes never
 * seen in the cluster) by discovery order.
 */
export function anchorOrder(found: readonly number[], proba: ArrayLike<number> | null, clusterCounts: ReadonlyMap<number, number> | undefined, order: VerificationOrder = "model"): number[] {
  const top = proba && order === "top" ? found.reduce((best, c) => (proba[c] > proba[best] ? c : best), found[0]) : null;
  const model = (c: number) => (!proba || order === "cluster" ? 0 : order === "top" ? (c === top ? 1 : 0) : proba[c]);
  return found
    .map((c, discovery) => ({ c, discovery, m: model(c), n: clusterCounts?.get(c) ?? 0 }))
    .sort((x, y) => y.m - x.m || y.n - x.n || x.discovery - y.discovery)
    .map((x) => x.c);
}

/** every drawn row's label recovered through pair answers, in labeling order */
export function verificationSteps({ rows, labels, clusterOf, proba, order = "model" }: VerificationInput): VerificationStep[] {
  const found: number[] = [];
  const byCluster = new Map<number, Map<number, number>>();
  return rows.map((row) => {
    const y = labels[row];
    const cluster = clusterOf[row];
    const rank = anchorOrder(found, proba(row), byCluster.get(cluster), order).indexOf(y);
    const newClass = rank < 0;
    if (newClass) found.push(y);
    const counts = byCluster.get(cluster) ?? new Map<number, number>();
    counts.set(y, (counts.get(y) ?? 0) + 1);
    byCluster.set(cluster, counts);
    return { row, answers: newClass ? found.length - 1 : rank + 1, newClass };
  });
}
