import { describe, expect, it } from "vitest";
import { silhouette } from "@/lib/metrics";
import { createRandom } from "@/lib/random";
import { silhouettesOfClusterings } from "./shared-silhouettes";

describe("silhouettes of many clusterings in one pass", () => {
  it("equal lib/metrics' exact silhouette of each, singletons and invalid clusterings included", () => {
    const random = createRandom(8);
    const n = 150;
    const d = 5;
    const x = Float32Array.from({ length: n * d }, (_, p) => random.next() * 4 + (Math.floor(p / d) % 3) * 3);
    const clusterings = [
      Int32Array.from({ length: n }, (_, i) => i % 3),
      Int32Array.from({ length: n }, () => random.int(7)),
      Int32Array.from({ length: n }, (_, i) => (i < 2 ? 100 + i : i % 4)), // two singleton clusters
      new Int32Array(n), // one cluster: undefined
      Int32Array.from({ length: n }, (_, i) => i), // all singletons: K = N, undefined
    ];
    const shared = silhouettesOfClusterings(x, d, clusterings);
    for (let q = 0; q < 3; q++) expect(shared[q]).toBeCloseTo(silhouette(x, clusterings[q]).score, 12);
    expect(shared[3]).toBeNaN();
    expect(shared[4]).toBeNaN();
  });

  it("matches scikit-learn on digits-spaces (pca8, k-means k = 8: silhouette_own_space 0.292182 in the manifest)", async () => {
    const { loadSpacesBundle } = await import("@/lib/data/embedding-spaces");
    const bundle = await loadSpacesBundle("data/digits-spaces", { spaceNames: ["pca8"] });
    const pca8 = bundle.spaces[0];
    const clustering = bundle.clusterings.find((c) => c.name === "pca8_kmeans_k8")!;
    const [score] = silhouettesOfClusterings(pca8.x, pca8.d, [clustering.labels]);
    expect(score).toBeCloseTo(0.29218217730522156, 6);
  });
});
