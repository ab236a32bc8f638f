import { describe, expect, it } from "vitest";
import { drawAnchorPairs, drawPairs, drawUncertainPairs, isUniformPairDraw, pairKey, recordPairDraws, recordPairGroups } from "./pair-designs";
import { Random } from "../../random/named-streams";

/** six items, two predicted clusters: 0-2 lean to cluster 0 (item 1 most), 3-5 to cluster 1 (item 4 most); binary fractions, so P is exact */
const proba = Float32Array.from([0.875, 0.125, 0.9375, 0.0625, 0.875, 0.125, 0.25, 0.75, 0.125, 0.875, 0.375, 0.625]);
const predictions = { proba, k: 2 };

describe("pair designs", () => {
  it("random: distinct new pairs i < j, q = n / pairs left, recorded as uniform; no predictions also means uniform", () => {
    const taken = new Set([pairKey(0, 1), pairKey(2, 3)]);
    for (const p of [null, predictions]) {
      const [{ design, draws }, ...rest] = drawPairs("random", 6, 4, new Random(1), taken, p);
      expect(rest).toEqual([]);
      expect(design).toBe("uniform");
      expect(draws).toHaveLength(4);
      expect(new Set(draws.map((d) => pairKey(d.row, d.rowB))).size).toBe(4);
      for (const d of draws) {
        expect(d.row).toBeLessThan(d.rowB);
        expect(taken.has(pairKey(d.row, d.rowB))).toBe(false);
        expect(d.q).toBeCloseTo(4 / 13, 12); // 15 pairs, 2 taken
        expect(d.score).toBeNull();
      }
    }
    expect(drawPairs("uncertain", 6, 2, new Random(1), taken, null).map((g) => g.design)).toEqual(["uniform"]);
  });

  it("uncertain: the pairs with P nearest 0.5 from the pool, score 1 - |2P - 1|, q = pool share x top-score inclusion", () => {
    // flat rows: items 3 and 5 become [0.5, 0.5], so every pair with them has P = 0.5 exactly
    const flat = Float32Array.from(proba);
    flat.set([0.5, 0.5], 6);
    flat.set([0.5, 0.5], 10);
    const draws = drawUncertainPairs(6, 2, new Random(2), new Set(), { proba: flat, k: 2 }, 40);
    expect(draws).toHaveLength(2);
    // the pool is all 15 pairs (q 1); the 9 pairs touching item 3 or 5 tie at score 1 for 2 places
    for (const d of draws) {
      expect([d.row, d.rowB].some((r) => r === 3 || r === 5)).toBe(true);
      expect(d.score).toBeCloseTo(1, 6);
      expect(d.q).toBeCloseTo(2 / 9, 12);
    }
    // item 0 vs item 2: P = 0.875^2 + 0.125^2 = 0.78125, score 1 - |1.5625 - 1| = 0.4375: ranked below
    const all = drawUncertainPairs(6, 15, new Random(2), new Set(), { proba: flat, k: 2 }, 1);
    const pair02 = all.find((d) => d.row === 0 && d.rowB === 2)!;
    expect(pair02.score).toBeCloseTo(0.4375, 12);
    expect(all.map((d) => d.score!)).toEqual([...all.map((d) => d.score!)].sort((a, b) => b - a));
  });

  it("anchor: even draws meet the representative of their most likely cluster, odd ones the second; records stamp order and round", () => {
    const draws = drawAnchorPairs(6, 4, new Random(3), new Set(), predictions);
    expect(draws).toHaveLength(4);
    const reps = [1, 4];
    draws.forEach((d, i) => {
      const rep = reps.includes(d.row) && !reps.includes(d.rowB) ? d.row : reps.includes(d.rowB) && !reps.includes(d.row) ? d.rowB : null;
      const item = rep === d.row ? d.rowB : d.row;
      const likely = proba[item * 2] > proba[item * 2 + 1] ? 1 : 4;
      if (rep !== null) expect(rep).toBe(i % 2 === 0 ? likely : likely === 1 ? 4 : 1);
      expect(d.q).toBeCloseTo(4 / 6, 12);
      const p = proba[d.row * 2] * proba[d.rowB * 2] + proba[d.row * 2 + 1] * proba[d.rowB * 2 + 1];
      expect(d.score).toBeCloseTo(p, 6);
    });
    // even draws pair a non-representative with its own cluster's representative: P > 0.5
    const evenItems = draws.filter((d, i) => i % 2 === 0 && !(reps.includes(d.row) && reps.includes(d.rowB)));
    expect(evenItems.length).toBeGreaterThan(0);
    expect(evenItems.every((d) => d.score! > 0.5)).toBe(true);
    const recorded = recordPairDraws(draws, "uniform", 3, 100);
    expect(recorded.map((r) => [r.order, r.round, r.design])).toEqual([
      [100, 3, "uniform"],
      [101, 3, "uniform"],
      [102, 3, "uniform"],
      [103, 3, "uniform"],
    ]);
  });

  it("anchor falls short once the anchor pairs run out, and the batch fills with one uniform draw (no score: isUniformPairDraw)", () => {
    const own = drawAnchorPairs(6, 12, new Random(4), new Set(), predictions);
    expect(own.length).toBeLessThan(12);
    const groups = drawPairs("anchor", 6, 12, new Random(4), new Set(), predictions);
    expect(groups.map((g) => [g.design, g.draws.length])).toEqual([
      ["uniform", own.length],
      ["uniform", 12 - own.length],
    ]);
    const records = recordPairGroups(groups, 1, 0);
    expect(new Set(records.map((d) => pairKey(d.row, d.rowB))).size).toBe(12);
    expect(records.map(isUniformPairDraw)).toEqual([...own.map(() => false), ...Array.from({ length: 12 - own.length }, () => true)]);
  });
});

describe("mixed batches", () => {
  it("uniformShare draws that share of a batch as uniform pairs after the design's own, all distinct", () => {
    const groups = drawPairs("uncertain", 6, 4, new Random(5), new Set(), predictions, { uniformShare: 0.5, candidatesPerPair: 3 });
    expect(groups.map((g) => [g.design, g.draws.length])).toEqual([
      ["top-score", 2],
      ["uniform", 2],
    ]);
    const keys = groups.flatMap((g) => g.draws.map((d) => pairKey(d.row, d.rowB)));
    expect(new Set(keys).size).toBe(4);
    const records = recordPairGroups(groups, 2, 10);
    expect(records.map((r) => [r.design, r.order])).toEqual([
      ["top-score", 10],
      ["top-score", 11],
      ["uniform", 12],
      ["uniform", 13],
    ]);
  });
});
