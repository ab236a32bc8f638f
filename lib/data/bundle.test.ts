import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contingency, nmiFromTable, amiFromTable, ariFromTable } from "@/lib/metrics";
import { BundleError, loadBundle } from "./bundle";
import { encodeNpy } from "./npy";

describe("loadBundle", () => {
  it("loads digits: shapes, classes, and clusterings whose true scores match the manifest", async () => {
    const b = await loadBundle("data/digits");
    expect([b.n, b.d, b.numClasses]).toEqual([1797, 64, 10]);
    expect(b.embeddings.length).toBe(1797 * 64);
    expect(b.clusterings.map((c) => c.name)).toEqual(["kmeans_k5", "kmeans_k10", "kmeans_k15", "gmm_k5", "gmm_k10", "gmm_k15"]);
    for (const c of b.clusterings) {
      const entry = b.manifest.clusterings[c.name];
      const table = contingency(b.labels!, c.assignments);
      expect(nmiFromTable(table)).toBeCloseTo(entry.nmi!, 10);
      expect(amiFromTable(table)).toBeCloseTo(entry.ami!, 8);
      expect(ariFromTable(table)).toBeCloseTo(entry.ari!, 10);
    }
    const gmm = b.clusterings.find((c) => c.name === "gmm_k10")!;
    expect(gmm.soft!.length).toBe(1797 * 10);
    const rowSum = gmm.soft!.subarray(0, 10).reduce((a, v) => a + v, 0);
    expect(rowSum).toBeCloseTo(1, 5);
    expect(b.clusterings.find((c) => c.name === "kmeans_k10")!.soft).toBeUndefined();
  });

  it("loads only the clusterings asked for, from the demo bundle", async () => {
    const b = await loadBundle("data/demo", { clusterings: ["gmm_k10"] });
    expect([b.n, b.d, b.numClasses]).toEqual([2000, 64, 10]);
    expect(b.clusterings.map((c) => [c.name, c.k, c.soft?.length])).toEqual([["gmm_k10", 10, 20000]]);
  });

  it("names a missing clustering and lists the ones there are", async () => {
    await expect(loadBundle("data/digits", { clusterings: ["nope"] })).rejects.toThrow(/no clustering 'nope' \(has kmeans_k5, /);
  });

  it("refuses shapes that disagree with the manifest, out-of-range ids and paths outside the folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bundle-"));
    try {
      await mkdir(join(dir, "clusterings"));
      await writeFile(join(dir, "embeddings.npy"), encodeNpy(new Float32Array(6), [3, 2]));
      await writeFile(join(dir, "labels.npy"), encodeNpy(Int32Array.from([0, 1, 1]), [3]));
      await writeFile(join(dir, "clusterings", "c.npy"), encodeNpy(Int32Array.from([0, 2, 1]), [3]));
      const manifest = (clusterings: object, N = 3) =>
        writeFile(join(dir, "manifest.json"), JSON.stringify({ name: "t", N, D: 2, class_names: ["a", "b"], clusterings }));

      await manifest({ c: { file: "clusterings/c.npy", K: 3 } });
      const ok = await loadBundle(dir);
      expect(ok.numClasses).toBe(2);
      expect(Array.from(ok.clusterings[0].assignments)).toEqual([0, 2, 1]);

      await manifest({ c: { file: "clusterings/c.npy", K: 2 } });
      await expect(loadBundle(dir)).rejects.toThrow(/item 1 has cluster 2, outside 0\.\.1/);
      await manifest({ c: { file: "clusterings/c.npy", K: 3 } }, 4);
      await expect(loadBundle(dir)).rejects.toThrow(/embeddings\.npy: expected shape \(4, 2\), found \(3, 2\)/);
      await manifest({ c: { file: "../../etc/passwd", K: 3 } });
      await expect(loadBundle(dir)).rejects.toThrow(BundleError);
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
