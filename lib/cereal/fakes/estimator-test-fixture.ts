/**
 * The six-item case the estimator tests compute by hand: truth 0 0 1 1 2 2, clusters 0 0 0 1 1 1,
 * items 0 (class 0) and 3 (class 1) labelled; the surrogate's argmax on the unlabeled items
 * 1, 2, 4, 5 is 0, 1, 2, 2 (item 2's surrogate is right, it is class 1).
 */
import type { EstimatorInput } from "../method/estimators";
import type { TestClustering } from "../method/problem";

export const sixItemsClustering: TestClustering = { name: "c", k: 2, assignments: Int32Array.from([0, 0, 0, 1, 1, 1]) };

export const sixItemsInput: EstimatorInput = {
  n: 6,
  numClasses: 3,
  labeled: { rows: Int32Array.from([0, 3]), labels: Int32Array.from([0, 1]) },
  unlabeled: Int32Array.from([1, 2, 4, 5]),
  proba: Float32Array.from([0.8, 0.1, 0.1, 0.2, 0.7, 0.1, 0.1, 0.1, 0.8, 0.3, 0.3, 0.4]),
  draws: [],
};
