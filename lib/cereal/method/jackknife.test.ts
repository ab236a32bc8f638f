import { describe, expect, it } from "vitest";
import { contingency, metricsFromTable, type ContingencyTable } from "@/lib/metrics";
import type { EstimatorInput } from "./estimators";
import { labelsOnlyEstimator } from "./estimators";
import { jackknife, jackknifeMetrics } from "./jackknife";
import type { TestClustering } from "./problem";
import { Random } from "../../random/named-streams";

/** n labeled rows with classes and clusters drawn independently: the population's MI is 0 */
function independentSample(seed: number, n: number, classes: number, clusters: number) {
  const random = Random.from(seed, "jackknife");
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const labels = Int32Array.from({ length: n }, () => random.int(classes));
  const clustering: TestClustering = { name: "c", k: clusters, assignments: Int32Array.from({ length: n }, () => random.int(clusters)) };
  const input: EstimatorInput = { n, numClasses: classes, labeled: { rows, labels }, unlabeled: new Int32Array(0), proba: null, draws: [] };
  const table = (i: EstimatorInput): ContingencyTable => labelsOnlyEstimator.table(i, clustering);
  return { input, table, clustering };
}

describe("jackknife metrics", () => {
  it("are G theta - (G - 1) mean of the leave-one-group-out values (hand computation, G = 2)", () => {
    // rows 0..3: classes 0 0 1 1, clusters 0 0 1 0; groups by position: {0, 2} and {1, 3}
    const clustering: TestClustering = { name: "c", k: 2, assignments: Int32Array.from([0, 0, 1, 0]) };
    const input: EstimatorInput = {
      n: 4,
      numClasses: 2,
      labeled: { rows: Int32Array.from([0, 1, 2, 3]), labels: Int32Array.from([0, 0, 1, 1]) },
      unlabeled: new Int32Array(0),
      proba: null,
      draws: [],
    };
    const table = (i: EstimatorInput) => labelsOnlyEstimator.table(i, clustering);
    const full = metricsFromTable(contingency([0, 0, 1, 1], [0, 0, 1, 0])).acc;
    const withoutFirst = metricsFromTable(contingency([0, 1], [0, 0])).acc; // rows 1, 3 left
    const withoutSecond = metricsFromTable(contingency([0, 1], [0, 1])).acc; // rows 0, 2 left
    expect([full, withoutFirst, withoutSecond]).toEqual([0.75, 0.5, 1]);
    // 2 * 0.75 - (0.5 + 1) / 2
    expect(jackknifeMetrics(input, table, 2).acc).toBeCloseTo(0.75, 12);
    const nmi = (a: number[], b: number[]) => metricsFromTable(contingency(a, b)).nmi;
    const expected = 2 * nmi([0, 0, 1, 1], [0, 0, 1, 0]) - (nmi([0, 1], [0, 0]) + nmi([0, 1], [0, 1])) / 2;
    expect(jackknifeMetrics(input, table, 2).nmi).toBeCloseTo(Math.min(1, Math.max(0, expected)), 12);
  });

  it("removes most of the plug-in NMI's small-sample bias (independent classes and clusters, true NMI 0)", () => {
    let plugIn = 0;
    let corrected = 0;
    const seeds = 40;
    for (let seed = 0; seed < seeds; seed++) {
      const { input, table } = independentSample(seed, 200, 8, 6);
      plugIn += metricsFromTable(table(input)).nmi / seeds;
      corrected += jackknifeMetrics(input, table).nmi / seeds;
    }
    // Miller-Madow: (48 - 8 - 6 + 1) / 400 = 0.0875 nats of MI over entropies of ~2 nats
    expect(plugIn).toBeGreaterThan(0.03);
    expect(corrected).toBeLessThan(plugIn / 3);
  });

  it("leaves an estimate without labels to rest on unchanged (fewer than 2 rows)", () => {
    const { input, table } = independentSample(1, 1, 2, 2);
    expect(jackknifeMetrics(input, table)).toEqual(metricsFromTable(table(input)));
  });

  it("give a metric's standard error sqrt((G - 1) / G sum_g (theta_g - mean)^2) with the whole table's metrics and the corrected ones, none under 2 rows", () => {
    const { input, table } = independentSample(2, 60, 3, 3);
    const leftOut = [0, 1, 2].map((g) => metricsFromTable(table({ ...input, multiplicity: Int32Array.from({ length: 60 }, (_, i) => (i % 3 === g ? 0 : 1)) })).nmi);
    const mean = (leftOut[0] + leftOut[1] + leftOut[2]) / 3;
    const { se, full, corrected } = jackknife(input, table, 3);
    expect(full).toEqual(metricsFromTable(table(input)));
    expect(corrected).toEqual(jackknifeMetrics(input, table, 3));
    expect(se!.nmi).toBeCloseTo(Math.sqrt((2 / 3) * leftOut.reduce((a, v) => a + (v - mean) ** 2, 0)), 12);
    expect(se!.nmi).toBeGreaterThan(0);
    const single = independentSample(1, 1, 2, 2);
    expect(jackknife(single.input, single.table).se).toBeNull();
  });
});
