import { describe, expect, it } from "vitest";
import { hdbscan } from "./hdbscan";
import { pageRank } from "./pagerank";
import { firstPrincipalComponent } from "./principal-component";

describe("PageRank", () => {
  it("on a star checked by hand: centre 18/37, leaves 19/74", () => {
    // leaves a, b send all their rank to the centre c, c splits its rank:
    // y = 0.05 + 0.85 (2x), x = 0.05 + 0.85 y / 2  =>  y = 18/37, x = 19/74
    const r = pageRank([
      [0, 1, 1],
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(r[0]).toBeCloseTo(18 / 37, 10);
    expect(r[1]).toBeCloseTo(19 / 74, 10);
    expect(r[2]).toBeCloseTo(19 / 74, 10);
  });

  it("spreads a dangling node's rank uniformly: 0 -> 1 gives 20/57 and 37/57", () => {
    // r0 = 0.075 + 0.85 r1 / 2, r1 = 0.075 + 0.85 (r0 + r1 / 2), r0 + r1 = 1
    const r = pageRank([
      [0, 1],
      [0, 0],
    ]);
    expect(r[0]).toBeCloseTo(20 / 57, 12);
    expect(r[1]).toBeCloseTo(37 / 57, 12);
  });

  it("follows the weights: a heavier edge draws more rank", () => {
    const r = pageRank([
      [0, 3, 1],
      [3, 0, 1],
      [1, 1, 0],
    ]);
    expect(r[0]).toBeCloseTo(r[1], 12);
    expect(r[0]).toBeGreaterThan(r[2]);
    expect(r.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});

describe("HDBSCAN", () => {
  const points = [0, 0.1, 0.2, 0.3, 10, 10.1, 10.2, 10.3, 50];
  const distances = points.map((a) => points.map((b) => Math.abs(a - b)));

  it("finds two separated groups and labels the far point an outlier", () => {
    const r = hdbscan(distances, { minClusterSize: 3 });
    expect(r.clusterCount).toBe(2);
    expect(Array.from(r.labels)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, -1]);
    // GLOSH of the outlier: 1 - lambda_p / lambda_max = 1 - 0.3 / 39.9 (its core distance is 39.9, the groups fall apart at 0.3)
    expect(r.outlierScores[8]).toBeCloseTo(1 - 0.3 / 39.9, 12);
    expect(r.outlierScores[0]).toBe(0);
  });

  it("calls everything noise when no split leaves two groups of min_cluster_size (root never selected)", () => {
    const p = [0, 0.05, 0.1, 5];
    const r = hdbscan(
      p.map((a) => p.map((b) => Math.abs(a - b))),
      { minClusterSize: 2 },
    );
    expect(Array.from(r.labels)).toEqual([-1, -1, -1, -1]);
    expect(r.outlierScores[3]).toBeGreaterThan(0.9);
  });

  it("refuses min_cluster_size below 2", () => {
    expect(() => hdbscan(distances, { minClusterSize: 1 })).toThrow(RangeError);
  });
});

describe("first principal component", () => {
  it("finds the direction of largest variance by power iteration", () => {
    // points spread along (0.6, 0.8) with a small orthogonal wobble
    const n = 50;
    const x = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const t = i - 25;
      const w = (i % 3) - 1;
      x[2 * i] = 0.6 * t - 0.8 * 0.1 * w + 5;
      x[2 * i + 1] = 0.8 * t + 0.6 * 0.1 * w - 2;
    }
    const pc = firstPrincipalComponent(x, n, 2, { seed: 1 });
    // the wobble is nearly uncorrelated with t, so the direction is (0.6, 0.8) to about 1e-4
    expect(Math.abs(pc.direction[0])).toBeCloseTo(0.6, 3);
    expect(Math.abs(pc.direction[1])).toBeCloseTo(0.8, 3);
    // the first point sits 24.5 from the mean (t runs from -25 to 24)
    expect(Math.abs(pc.projection[0])).toBeCloseTo(24.5, 2);
  });
});
