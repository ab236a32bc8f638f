import { describe, expect, it } from "vitest";
import { createRandom } from "@/lib/random";
import { ace } from "./ace";
import { evaluateLabelFree } from "./evaluate";
import { spearman } from "./spearman";

/**
 * Three classes of 40 items. Spaces a, b, c place the classes at well-separated means along
 * different axes (so the classes drive every score); space "noise" holds two tight blobs that
 * ignore the classes: multimodal, so it passes the dip screening, but blind to the clusterings.
 * Clustering q relabels a growing share of items at random, so its true quality falls with q.
 */
function syntheticCase() {
  const random = createRandom(7);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const n = 120;
  const truth = Int32Array.from({ length: n }, (_, i) => i % 3);
  const space = (name: string, d: number, mean: (cls: number, j: number) => number, spread: number) => {
    const x = new Float32Array(n * d);
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) x[i * d + j] = mean(truth[i], j) + spread * gauss();
    return { name, x, d };
  };
  const blobOf = Int32Array.from({ length: n }, () => random.int(2));
  const noise = { name: "noise", d: 3, x: new Float32Array(n * 3) };
  for (let i = 0; i < n; i++) for (let j = 0; j < 3; j++) noise.x[i * 3 + j] = (j === 0 ? 12 * blobOf[i] : 0) + 0.5 * gauss();
  const spaces = [
    space("a", 2, (c, j) => (j === 0 ? 8 * c : 0), 1),
    space("b", 4, (c, j) => (j === 1 ? -6 * c : j === 3 ? 2 * c : 0), 1),
    space("c", 3, (c, j) => (j === 2 ? 10 * c : 0), 1.5),
    noise,
  ];
  const shares = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
  const clusterings = shares.map((share, q) => {
    const labels = Int32Array.from(truth, (t) => (random.next() < share ? random.int(3) : t));
    return { name: `q${q}`, labels, space: spaces[q % 3].name };
  });
  return { spaces, clusterings, shares };
}

describe("ACE", () => {
  it("three agreeing spaces share the weight; the multimodal noise space gets none", () => {
    const { spaces, clusterings, shares } = syntheticCase();
    const r = evaluateLabelFree(spaces, clusterings, "silhouette", { seed: 3, simulations: 200 });
    // every space is multimodal along its first principal component
    expect(r.dips.every((d) => d.pValue <= 0.01)).toBe(true);
    expect(r.ace.multimodalSpaces).toEqual(["a", "b", "c", "noise"]);
    expect(r.ace.outlierSpaces).toEqual(["noise"]);
    expect([...r.ace.chosen.spaces].sort()).toEqual(["a", "b", "c"]);
    expect(r.ace.subgroups.some((g) => g.spaces.includes("noise"))).toBe(false);
    // the three nearly agree, so their graph is a triangle of nearly equal weights
    r.ace.chosen.weights.forEach((w) => expect(w).toBeCloseTo(1 / 3, 2));
    expect(r.ace.chosen.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // ACE ranks the clusterings by their true quality, one neighbouring pair swapped: -(1 - 6 * 2 / (8 * 63))
    expect(spearman(r.ace.scores, shares)).toBeCloseTo(-(1 - (6 * 2) / (8 * 63)), 12);
  });

  it("negates Davies-Bouldin so that higher is better, and reaches the same ranking", () => {
    const { spaces, clusterings, shares } = syntheticCase();
    const r = evaluateLabelFree(spaces, clusterings, "davies-bouldin", { seed: 3, simulations: 200 });
    expect(r.matrix.scores.flat().every((v) => v < 0)).toBe(true);
    expect(r.ace.chosen.spaces).not.toContain("noise");
    expect(spearman(r.ace.scores, shares)).toBeLessThan(-0.95);
  });

  it("keeps every space when none rejects unimodality, and drops constant score vectors", () => {
    const scores = [
      [0.1, 0.2, 0.3, 0.4],
      [0.2, 0.25, 0.5, 0.6],
      [0.3, 0.3, 0.3, 0.3],
    ];
    const r = ace({ spaces: ["x", "y", "z"], scores, dipPValues: [0.5, 0.9, 0.7] });
    expect(r.multimodalSpaces).toEqual(["x", "y", "z"]);
    expect(r.constantSpaces).toEqual(["z"]);
    expect(r.analysedSpaces).toEqual(["x", "y"]);
    expect(r.correlations[0][1]).toBe(1);
  });

  it("counts an undefined score (one cluster) as the worst score seen", () => {
    const r = ace({
      spaces: ["x", "y"],
      scores: [
        [0.5, NaN, 0.2, 0.4],
        [0.6, 0.1, 0.3, 0.5],
      ],
      dipPValues: [0.001, 0.001],
    });
    expect(r.correlations[0][1]).toBeCloseTo(1, 12);
  });
});
