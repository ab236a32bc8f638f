import { describe, expect, it } from "vitest";
import { denseTable, metricsFromTable } from "@/lib/metrics";
import { estimatorByName } from "./estimators";
import { softTable } from "./estimators-soft";
import { sixItemsClustering as clustering, sixItemsInput as input } from "../fakes/estimator-test-fixture";

describe("soft estimator", () => {
  it("adds each unlabeled row's whole distribution to its cluster's column", () => {
    // column 0: item 0 [1,0,0] + item 1 [.8,.1,.1] + item 2 [.2,.7,.1] = [2.0, 0.8, 0.2]
    // column 1: item 3 [0,1,0] + item 4 [.1,.1,.8] + item 5 [.3,.3,.4] = [0.4, 1.4, 1.2]
    const t = denseTable(softTable(input, clustering));
    const expected = [
      [2.0, 0.4],
      [0.8, 1.4],
      [0.2, 1.2],
    ];
    t.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i][j], 6)));
  });

  it("counts a labeled row by its bootstrap multiplicity and is found by name", () => {
    const t = denseTable(estimatorByName("soft").table({ ...input, multiplicity: Int32Array.from([2, 0]) }, clustering));
    // item 0 twice, item 3 dropped: column 0 = [3.0, 0.8, 0.2], column 1 = [0.4, 0.4, 1.2]
    expect(t[0][0]).toBeCloseTo(3.0, 6);
    expect(t[1][1]).toBeCloseTo(0.4, 6);
    expect(metricsFromTable(softTable(input, clustering)).nmi).toBeGreaterThan(0);
  });

  it("needs the surrogate's probabilities", () => {
    expect(() => softTable({ ...input, proba: null }, clustering)).toThrow(/no surrogate probabilities/);
  });
});
