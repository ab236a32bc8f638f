import { describe, expect, it } from "vitest";
import { BundleError } from "./bundle";
import { loadSpacesBundle } from "./embedding-spaces";

describe("loadSpacesBundle", () => {
  it("reads digits-spaces: 8 spaces (isomap8 transposed from Fortran order) and 24 clusterings with their space and NMI", async () => {
    const b = await loadSpacesBundle("data/digits-spaces");
    expect(b.n).toBe(1797);
    expect(b.spaces.map((s) => [s.name, s.d])).toEqual([
      ["raw", 64],
      ["standardized", 64],
      ["pca8", 8],
      ["pca16", 16],
      ["randproj16", 16],
      ["isomap8", 8],
      ["half_noise", 16],
      ["noise", 16],
    ]);
    const isomap = b.spaces.find((s) => s.name === "isomap8")!;
    expect(isomap.x[8]).toBeCloseTo(-26.787554, 4); // numpy: isomap8[1, 0]
    expect(b.clusterings).toHaveLength(24);
    const first = b.clusterings[0];
    expect([first.name, first.space]).toEqual(["raw_kmeans_k8", "raw"]);
    expect(first.trueNmi).toBeCloseTo(0.714769366826397, 12);
  });

  it("reads only the spaces asked for, and names a missing one", async () => {
    const b = await loadSpacesBundle("data/digits-spaces", { spaceNames: ["pca8"], withClusterings: false });
    expect(b.spaces.map((s) => s.name)).toEqual(["pca8"]);
    expect(b.clusterings).toHaveLength(0);
    await expect(loadSpacesBundle("data/digits-spaces", { spaceNames: ["umap"] })).rejects.toThrow(BundleError);
    await expect(loadSpacesBundle("data/digits-spaces", { spaceNames: ["umap"] })).rejects.toThrow(/no space 'umap'/);
  });

  it("treats a bundle without spaces as one space, its embeddings", async () => {
    const b = await loadSpacesBundle("data/digits", { withClusterings: true });
    expect(b.spaces.map((s) => [s.name, s.d])).toEqual([["embeddings", 64]]);
    expect(b.clusterings.every((c) => c.space === "embeddings")).toBe(true);
  });
});
