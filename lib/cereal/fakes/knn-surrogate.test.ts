import { describe, expect, it } from "vitest";
import { loadBundle } from "@/lib/data/bundle";
import { createKnnSurrogate } from "./knn-surrogate";

describe("knn surrogate", () => {
  it("learns digits from 200 labels (> 90% on the rest) and gives distributions", async () => {
    const b = await loadBundle("data/digits", { clusterings: [] });
    const s = createKnnSurrogate({ data: b.embeddings, n: b.n, d: b.d }, 10);
    const rows = Int32Array.from({ length: 200 }, (_, i) => i * 8);
    await s.fit({ rows, labels: Int32Array.from(rows, (r) => b.labels![r]) }, new Int32Array(0), { seed: 0, fixmatch: false });
    const rest = Int32Array.from({ length: b.n }, (_, i) => i).filter((i) => i % 8 !== 0);
    const p = await s.predictProba(rest);
    let right = 0;
    for (let i = 0; i < rest.length; i++) {
      const row = Array.from(p.subarray(i * 10, i * 10 + 10));
      expect(row.reduce((a, v) => a + v, 0)).toBeCloseTo(1, 5);
      if (row.indexOf(Math.max(...row)) === b.labels![rest[i]]) right++;
    }
    expect(right / rest.length).toBeGreaterThan(0.9);
    // MC passes (features dropped) differ from each other, and repeat for the same seed
    const mc = await s.predictProbaMc(rest.subarray(0, 50), 3, 7);
    expect(Array.from(mc.subarray(0, 500))).not.toEqual(Array.from(mc.subarray(500, 1000)));
    expect(Array.from(await s.predictProbaMc(rest.subarray(0, 50), 3, 7))).toEqual(Array.from(mc));
  });
});
