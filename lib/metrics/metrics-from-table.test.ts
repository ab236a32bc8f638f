import { describe, expect, it } from "vitest";
import { ami, ari, clusteringAccuracy, fowlkesMallows, nmi, vMeasure } from "./index";
import { apMetric } from "./ap";
import { contingency } from "./contingency";
import { expectedContingency } from "./expected-contingency";
import { clampMetric, METRIC_KEYS, METRIC_RANGE, metricsFromTable } from "./metrics-from-table";
import { createRandom } from "@/lib/random";

describe("metricsFromTable", () => {
  const random = createRandom(77);
  const n = 500;
  const t = Array.from({ length: n }, () => random.int(6));
  const p = t.map((v) => (random.next() < 0.6 ? v : random.int(8)));

  it("returns exactly the metric contract's keys, equal to the label-form functions", () => {
    const all = metricsFromTable(contingency(t, p));
    expect(Object.keys(all).sort()).toEqual([...METRIC_KEYS].sort());
    expect(all.nmi).toBe(nmi(t, p));
    expect(all.ami).toBe(ami(t, p));
    expect(all.ari).toBe(ari(t, p));
    expect(all.acc).toBe(clusteringAccuracy(t, p));
    expect(all.vMeasure).toBe(vMeasure(t, p));
    expect(all.fmi).toBe(fowlkesMallows(t, p));
    expect(all.ap).toBe(apMetric(contingency(t, p)).ap);
  });

  it("accepts plain matrices and expected tables; a one-hot soft side gives the hard values", () => {
    const oneHot = new Float32Array(n * 8);
    p.forEach((v, i) => (oneHot[i * 8 + v] = 1));
    const hard = metricsFromTable(contingency(t, p));
    const soft = metricsFromTable(expectedContingency(t, oneHot));
    for (const key of METRIC_KEYS) expect(soft[key], key).toBeCloseTo(hard[key], 12);
    const plain = metricsFromTable([
      [10, 1],
      [2, 7],
    ]);
    for (const key of METRIC_KEYS) {
      expect(plain[key], key).toBeGreaterThan(0);
      expect(plain[key], key).toBeLessThanOrEqual(1);
    }
  });
});

describe("metric ranges", () => {
  it("hold every metric of random tables, and clampMetric moves values into them", () => {
    const random = createRandom(5);
    for (let trial = 0; trial < 20; trial++) {
      const a = Array.from({ length: 60 }, () => random.int(4));
      const b = Array.from({ length: 60 }, () => random.int(5));
      const values = metricsFromTable(contingency(a, b));
      for (const key of METRIC_KEYS) {
        expect(values[key], key).toBeGreaterThanOrEqual(METRIC_RANGE[key][0]);
        expect(values[key], key).toBeLessThanOrEqual(METRIC_RANGE[key][1]);
        expect(clampMetric(key, values[key])).toBe(values[key]);
      }
    }
    expect(clampMetric("nmi", -0.2)).toBe(0);
    expect(clampMetric("ari", -0.7)).toBe(-0.5);
    expect(clampMetric("acc", 1.3)).toBe(1);
  });
});
