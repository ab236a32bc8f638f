/**
 * The soft (expected-counts) estimator: labels on the labeled rows, and for every unlabeled row the
 * surrogate's whole distribution pi(.|x) added to its cluster's column instead of one count at the
 * argmax. The table is E[T] under independent per-item draws y ~ pi(.|x),
 *   T^_{yc} = sum_{i in L} [y_i = y][c_i = c] + sum_{i in U} pi(y|x_i) [c_i = c],
 * built by lib/metrics' expectedContingency, whose pair diagonal gives ARI/FMI the expected pair
 * counts instead of the plug-in. It has no sampling variance from pi, so a bootstrap draw ignores
 * sampled pseudo-labels and resamples the labeled rows only: its interval does not see the
 * surrogate's bias (ppi.ts corrects that bias; its interval does).
 */
import { expectedContingency, type ContingencyTable } from "@/lib/metrics";
import type { Estimator, EstimatorInput } from "./estimators";
import type { TestClustering } from "./problem";

export function softTable(input: EstimatorInput, clustering: TestClustering): ContingencyTable {
  if (!input.proba) throw new Error("soft estimator: no surrogate probabilities for the unlabeled rows");
  const C = input.numClasses;
  const { rows, labels } = input.labeled;
  const m = rows.length;
  const u = input.unlabeled.length;
  const probs = new Float32Array((m + u) * C);
  const clusters = new Int32Array(m + u);
  const weights = new Float64Array(m + u);
  for (let i = 0; i < m; i++) {
    probs[i * C + labels[i]] = 1;
    clusters[i] = clustering.assignments[rows[i]];
    weights[i] = input.multiplicity ? input.multiplicity[i] : 1;
  }
  probs.set(input.proba, m * C);
  for (let i = 0; i < u; i++) {
    clusters[m + i] = clustering.assignments[input.unlabeled[i]];
    weights[m + i] = 1;
  }
  // the clusters side as ids with the clustering's k (hard labels would be densified to the clusters present)
  return expectedContingency({ probs, k: C }, { ids: clusters, k: clustering.k }, weights);
}

export const softEstimator: Estimator = {
  name: "soft",
  usesSurrogate: true,
  table: softTable,
};
