import { describe, expect, it } from "vitest";
import { nmi } from "@/lib/metrics";
import { createRandom } from "@/lib/random";
import { kMeans } from "./kmeans";
import { nearestNeighbours, symmetricKnnGraph } from "./knn-graph";
import { largestEigenpairs, tridiagonalEigen } from "./lanczos";
import { spectralClustering } from "./spectral";
import { makeCandidateClustering } from "./candidate";

/** k Gaussian blobs in d dimensions, centres 10 apart on the axes, unit spread; seeded. */
function blobs(perBlob: number, k: number, d: number, seed: number): { x: Float64Array; truth: Int32Array; n: number } {
  const random = createRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const n = perBlob * k;
  const x = new Float64Array(n * d);
  const truth = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    truth[i] = i % k;
    for (let j = 0; j < d; j++) x[i * d + j] = (j === truth[i] % d ? 10 * (1 + Math.floor(truth[i] / d)) : 0) + gauss();
  }
  return { x, truth, n };
}

describe("k-means", () => {
  it("recovers separated blobs (NMI > 0.95) with a low, reproducible inertia", () => {
    const { x, truth, n } = blobs(60, 4, 3, 1);
    const a = kMeans(x, n, 3, { k: 4, seed: 9 });
    expect(nmi(truth, a.labels)).toBeGreaterThan(0.95);
    // within-blob scatter is about n * d = 720 for unit spread
    expect(a.inertia).toBeLessThan(900);
    const b = kMeans(x, n, 3, { k: 4, seed: 9 });
    expect(Array.from(b.labels)).toEqual(Array.from(a.labels));
    expect(b.inertia).toBe(a.inertia);
  });

  it("puts each point in its own cluster when k = n (inertia 0)", () => {
    const x = Float64Array.of(0, 0, 5, 5, 10, 0);
    const r = kMeans(x, 3, 2, { k: 3, seed: 1 });
    expect(new Set(r.labels).size).toBe(3);
    expect(r.inertia).toBe(0);
  });

  it("refuses k outside 1..n", () => {
    expect(() => kMeans(new Float64Array(4), 2, 2, { k: 3 })).toThrow(RangeError);
  });
});

describe("kNN graph", () => {
  it("finds exact neighbours and symmetrizes (C + C^T) / 2", () => {
    // points on a line: 0, 1, 3, 7
    const nn = nearestNeighbours(Float64Array.of(0, 1, 3, 7), 4, 1, 1);
    expect(Array.from(nn)).toEqual([1, 0, 1, 2]);
    const g = symmetricKnnGraph(nn, 4, 1);
    // 0<->1 mutual (weight 1); 2->1 and 3->2 one-way (weight 1/2)
    const entries = (i: number) => Array.from(g.cols.subarray(g.rowStart[i], g.rowStart[i + 1])).map((c, p) => [c, g.values[g.rowStart[i] + p]]);
    expect(entries(0)).toEqual([[1, 1]]);
    expect(entries(1)).toEqual([
      [0, 1],
      [2, 0.5],
    ]);
    expect(entries(3)).toEqual([[2, 0.5]]);
  });

  it("agrees with a naive search over every pair (blocked rows and the tail)", () => {
    const random = createRandom(6);
    const n = 23;
    const d = 3;
    const x = Float64Array.from({ length: n * d }, () => random.next());
    const nn = nearestNeighbours(x, n, d, 4);
    for (let i = 0; i < n; i++) {
      const dist = (j: number) => [0, 1, 2].reduce((s, t) => s + (x[i * d + t] - x[j * d + t]) ** 2, 0);
      const naive = Array.from({ length: n }, (_, j) => j)
        .filter((j) => j !== i)
        .sort((a, b) => dist(a) - dist(b))
        .slice(0, 4);
      expect(Array.from(nn.subarray(i * 4, i * 4 + 4))).toEqual(naive);
    }
  });
});

describe("Lanczos", () => {
  it("tridiagonal QL: the path graph Laplacian has eigenvalues 2 - 2 cos(pi j / n)", () => {
    // Laplacian of a path on n nodes: diag (1, 2, ..., 2, 1), off-diagonal -1
    const n = 12;
    const diag = Array.from({ length: n }, (_, i) => (i === 0 || i === n - 1 ? 1 : 2));
    const { values } = tridiagonalEigen(diag, new Array(n - 1).fill(-1));
    values.forEach((v, j) => expect(v).toBeCloseTo(2 - 2 * Math.cos((Math.PI * j) / n), 12));
  });

  it("finds the largest eigenpairs of a diagonal operator, vectors included", () => {
    const n = 300;
    const diag = Float64Array.from({ length: n }, (_, i) => Math.sin(i) + i / n);
    const r = largestEigenpairs((x, y) => x.forEach((v, i) => (y[i] = diag[i] * v)), n, 3, { seed: 2 });
    const top = Array.from(diag).sort((a, b) => b - a);
    expect(r.converged).toBe(true);
    for (let i = 0; i < 3; i++) {
      expect(r.values[i]).toBeCloseTo(top[i], 8);
      const at = Array.from(diag).indexOf(top[i]);
      expect(Math.abs(r.vectors[i * n + at])).toBeCloseTo(1, 6);
    }
  });
});

describe("spectral clustering", () => {
  it("recovers separated blobs (NMI > 0.95)", () => {
    const { x, truth, n } = blobs(50, 4, 3, 2);
    const r = spectralClustering(x, n, 3, { k: 4, seed: 3 });
    expect(nmi(truth, r.labels)).toBeGreaterThan(0.95);
    // four disconnected components in the kNN graph: eigenvalue 1 of D^-1/2 A D^-1/2 four times
    expect(r.components).toBe(4);
    r.eigenvalues.forEach((v) => expect(v).toBeCloseTo(1, 10));
  });

  it("separates two concentric rings, which k-means cannot", () => {
    const random = createRandom(4);
    const n = 200;
    const x = new Float64Array(2 * n);
    const truth = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      truth[i] = i % 2;
      const radius = truth[i] ? 5 : 1;
      const angle = 2 * Math.PI * random.next();
      x[2 * i] = radius * Math.cos(angle) + 0.1 * (random.next() - 0.5);
      x[2 * i + 1] = radius * Math.sin(angle) + 0.1 * (random.next() - 0.5);
    }
    expect(nmi(truth, spectralClustering(x, n, 2, { k: 2, seed: 1 }).labels)).toBeGreaterThan(0.95);
    expect(nmi(truth, kMeans(x, n, 2, { k: 2, seed: 1 }).labels)).toBeLessThan(0.5);
  });

  it("a candidate clustering records its algorithm, parameters and time, with checkpoints between the steps", async () => {
    const { x, n, truth } = blobs(20, 3, 3, 5);
    const stages: string[] = [];
    const c = await makeCandidateClustering(x, n, 3, { method: "spectral", k: 3, seed: 1 }, async (stage) => void stages.push(stage));
    expect(stages).toEqual(["eigenvectors", "k-means"]);
    // the steps in turn give what spectralClustering gives at once
    expect(Array.from(c.labels)).toEqual(Array.from(spectralClustering(x, n, 3, { k: 3, seed: 1 }).labels));
    expect(nmi(truth, c.labels)).toBeGreaterThan(0.95);
    expect(c.algorithm).toBe("spectral");
    expect(c.params).toMatchObject({ k: 3, seed: 1, neighbours: 10 });
    expect(c.seconds).toBeGreaterThan(0);
    expect(c.labels.length).toBe(n);
  });
});

describe("candidate clustering limits", () => {
  it("refuses spectral clustering above SPECTRAL_MAX_ITEMS before touching the points", async () => {
    await expect(makeCandidateClustering(new Float32Array(0), 20_001, 8, { method: "spectral", k: 10, seed: 0 })).rejects.toThrow(
      "spectral clustering is limited to 20000 items (its kNN search grows as N^2); this data has 20001: use k-means",
    );
  });
});
