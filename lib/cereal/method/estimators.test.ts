import { describe, expect, it } from "vitest";
import { contingency, metricsFromTable } from "@/lib/metrics";
import { argmaxEstimator, currentEstimatorName, estimateMetrics, estimatorByName, labelsOnlyEstimator, pseudoLabel } from "./estimators";
import { sixItemsClustering as clustering, sixItemsInput as input } from "../fakes/estimator-test-fixture";

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
    expect(() => estimatorByName("nope")).toThrow(/unknown estimator 'nope' \(known: labels, argmax, soft, ppi, ppi-hard, ppi-per-cluster, ppi-untuned, ppi-size, ppi-ht, ppi-stage-ratio, ppi-labels, ppi-jackknife, guarded, guarded-pick, guarded-no-overconfidence, guarded-no-gap, guarded-overconfident-15, guarded-plain-ppi, guarded-no-reach, guarded-no-floor, guarded-no-pool-floor, guarded-jackknifed-mean, guarded-gap-always, guarded-blend, guarded-blend-jk, guarded-blend-calibrated, guarded-linear-plentiful, guarded-per-cluster, guarded-diffuse-always\)/);
    expect(() => argmaxEstimator.table({ ...input, proba: null }, clustering)).toThrow(/no surrogate probabilities/);
  });

  it("finds an estimator by a name it was registered under before", () => {
    expect(currentEstimatorName("guarded-mean-plentiful")).toBe("guarded");
    expect(estimatorByName("guarded-mean-plentiful")).toBe(estimatorByName("guarded"));
    expect(currentEstimatorName("ppi")).toBe("ppi");
    // inherited object keys are no estimator names
    expect(() => estimatorByName("toString")).toThrow(/unknown estimator 'toString'/);
  });
});
