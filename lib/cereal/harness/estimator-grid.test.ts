import { describe, expect, it } from "vitest";
import { estimatorsGrid, estimatorsTable, seedBootstrapInterval, wilsonInterval, type EstimatorGridRun } from "./estimator-grid";

describe("estimators grid", () => {
  it("Wilson interval of 17/20 (z = 1.96)", () => {
    const [lo, hi] = wilsonInterval(17, 20);
    // (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n) with p = .85
    expect(lo).toBeCloseTo(0.6396, 3);
    expect(hi).toBeCloseTo(0.9476, 3);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it("seed bootstrap of a pooled coverage resamples whole runs", () => {
    // two runs, 9/10 and 5/10: a resample is both of one (0.9 or 0.5) or one of each (0.7)
    const [lo, hi] = seedBootstrapInterval([
      { covered: 9, count: 10 },
      { covered: 5, count: 10 },
    ]);
    expect([lo, hi]).toEqual([0.5, 0.9]);
    // one run: no spread between seeds to see
    expect(seedBootstrapInterval([{ covered: 17, count: 20 }])).toEqual([0.85, 0.85]);
    expect(seedBootstrapInterval([])).toEqual([0, 1]);
  });

  it("tables estimators x designs with the ratio to Random's labels-only AEC and pooled coverage", () => {
    const grid = estimatorsGrid().filter((g) => g.design === "uniform").slice(0, 1);
    const figures = (labels: number, soft: number, covered: number) => ({
      labels: { aecPer1000Labels: { nmi: labels, ami: labels, ari: labels }, coveredAfter200: { nmi: covered, ami: 0, ari: 0 }, countAfter200: 10 },
      soft: { aecPer1000Labels: { nmi: soft, ami: soft, ari: soft }, coveredAfter200: { nmi: covered, ami: 0, ari: 0 }, countAfter200: 10 },
    });
    const runs: EstimatorGridRun[] = [0, 1].map((seed) => ({
      key: `k${seed}`,
      label: grid[0].label,
      seed,
      budgets: { 500: figures(0.01, 0.003 + seed * 0.002, 9) },
      surrogateAccuracy: 0.9,
      weakShare: 0,
      seconds: 1,
    }));
    const table = estimatorsTable(grid, runs, [500]);
    expect(table).toContain(`| ${grid[0].label} | soft | 2 | 0.0040 ± 0.0010 | 0.0040 ± 0.0010 | 0.0040 ± 0.0010 | 0.40x | 0.900 [`);
    expect(table).toContain("(18/20); by seed [0.900, 0.900]");
  });
});
