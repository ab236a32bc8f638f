import { describe, expect, it } from "vitest";
import { contingency, metricsFromTable } from "@/lib/metrics";
import { argmaxEstimator, estimateMetrics, estimatorByName, labelsOnlyEstimator, pseudoLabel, type EstimatorInput } from "./estimators";
import type { TestClustering } from "./problem";

// 6 items; truth 0 0 1 1 2 2; clusters 0 0 0 1 1 1; items 0, 3 labelled
const clustering: TestClustering = { name: "c", k: 2, assignments: Int32Array.from([0, 0, 0, 1, 1, 1]) };
const input: EstimatorInput = {
  n: 6,
  numClasses: 3,
  labeled: { rows: Int32Array.from([0, 3]), labels: Int32Array.from([0, 1]) },
  unlabeled: Int32Array.from([1, 2, 4, 5]),
  // argmax: 0, 1, 2, 2 (item 2's surrogate is right, it is class 1)
  proba: Float32Array.from([0.8, 0.1, 0.1, 0.2, 0.7, 0.1, 0.1, 0.1, 0.8, 0.3, 0.3, 0.4]),
  draws: [],
};

describe("estimators", () => {
  it("pseudoLabel is the argmax, ties to the lower class", () => {
    expect(Array.from(pseudoLabel(input.proba!, 3))).toEqual([0, 1, 2, 2]);
    expect(Array.from(pseudoLabel(Float32Array.from([0.5, 0.5]), 2))).toEqual([0]);
  });

  it("argmax: labels + pseudo-labels make the table of all items", () => {
    // classes by item: 0 (label), 0, 1, 1 (label), 2, 2
    const t = argmaxEstimator.table(input, clustering);
    expect(t.total).toBe(6);
    expect(metricsFromTable(t)).toEqual(metricsFromTable(contingency([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1])));
  });

  it("labels only: the labelled items alone, counted by multiplicity", () => {
    const t = labelsOnlyEstimator.table({ ...input, multiplicity: Int32Array.from([3, 1]) }, clustering);
    expect(t.total).toBe(4);
    expect(metricsFromTable(t)).toEqual(metricsFromTable(contingency([0, 0, 0, 1], [0, 0, 0, 1])));
  });

  it("sampled pseudo-labels replace the argmax when given", () => {
    const t = argmaxEstimator.table({ ...input, pseudoLabels: Int32Array.from([0, 0, 0, 0]) }, clustering);
    expect(metricsFromTable(t)).toEqual(metricsFromTable(contingency([0, 0, 0, 1, 0, 0], [0, 0, 0, 1, 1, 1])));
  });

  it("estimates every metric of every clustering and is found by name", () => {
    const all = estimateMetrics(input, [clustering, { ...clustering, name: "d" }], estimatorByName("argmax"));
    expect(Object.keys(all)).toEqual(["c", "d"]);
    expect(Object.keys(all.c)).toEqual(["nmi", "ami", "ari", "acc", "vMeasure", "fmi", "ap"]);
    expect(() => estimatorByName("nope")).toThrow(/unknown estimator 'nope' \(known: labels, argmax, soft, ppi, ppi-hard, ppi-untuned, ppi-size, ppi-ht, guarded\)/);
    expect(() => argmaxEstimator.table({ ...input, proba: null }, clustering)).toThrow(/no surrogate probabilities/);
  });
});
