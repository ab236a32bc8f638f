import { describe, expect, it } from "vitest";
import { apMetric } from "./ap";
import { contingency } from "./contingency";
import { f1Contingency } from "./f1";
import { createRandom, permutation } from "@/lib/random";

function permute(table: number[][], rowOrder: ArrayLike<number>, colOrder: ArrayLike<number>): number[][] {
  return Array.from(rowOrder, (r) => Array.from(colOrder, (c) => table[r][c]));
}

describe("apMetric", () => {
  it("reproduces the paper's example: A = 1, P = 0.446, AP = 0.617", () => {
    // rows with (max1, max2) = (260,151), (330,302), (313,161), (490,101), distinct argmax columns
    const table = [
      [260, 151, 20, 5],
      [12, 330, 302, 40],
      [161, 0, 9, 313],
      [101, 33, 490, 0],
    ];
    const r = apMetric(table);
    expect(r.associativity).toBe(1);
    expect(r.peakiness).toBeCloseTo(0.446, 3);
    expect(r.ap).toBeCloseTo(0.617, 3);
    const P = (109 / 260 + 28 / 330 + 152 / 313 + 389 / 490) / 4;
    expect(r.peakiness).toBeCloseTo(P, 15);
    expect(r.ap).toBeCloseTo((2 * P) / (1 + P), 15);
  });

  it("gives 1 on a diagonal table and on a permuted diagonal, square or not", () => {
    expect(apMetric([
      [5, 0, 0],
      [0, 7, 0],
      [0, 0, 1],
    ])).toEqual({ associativity: 1, peakiness: 1, ap: 1 });
    expect(apMetric(contingency([0, 0, 1, 2, 2], [9, 9, 3, 5, 5])).ap).toBe(1);
    // more clusters than classes, each row still one-peaked and distinct: 1
    expect(apMetric([
      [4, 0, 0, 0],
      [0, 0, 3, 0],
    ]).ap).toBe(1);
  });

  it("gives A = 0 and AP = 0 when all counts are in one column", () => {
    expect(apMetric([
      [0, 10],
      [0, 4],
      [0, 6],
    ])).toEqual({ associativity: 0, peakiness: 1, ap: 0 });
  });

  it("leaves zero rows out of A and P", () => {
    const withZero = apMetric([
      [9, 1],
      [0, 0],
      [2, 8],
    ]);
    const without = apMetric([
      [9, 1],
      [2, 8],
    ]);
    expect(withZero).toEqual(without);
    expect(without.associativity).toBe(1);
    expect(without.peakiness).toBeCloseTo((0.8 / 0.9 + 0.75) / 2, 15);
  });

  it("non-square: more classes than clusters forces shared argmax columns", () => {
    // argmax columns 0, 0, 1: one equal pair of three
    const r = apMetric([
      [5, 1],
      [4, 0],
      [1, 6],
    ]);
    expect(r.associativity).toBeCloseTo(2 / 3, 15);
    expect(r.peakiness).toBeCloseTo((0.8 + 1 + 5 / 6) / 3, 15);
  });

  it("splits ties uniformly, so tied tables are invariant to column order", () => {
    // row 0 ties between columns 0 and 1; row 1 peaks at column 0
    const table = [
      [5, 5, 0],
      [7, 1, 0],
      [0, 0, 3],
    ];
    const r = apMetric(table);
    // pairs: (0,1) equal with probability 1/2, (0,2) and (1,2) never: A = 1 - 0.5 / 3
    expect(r.associativity).toBeCloseTo(1 - 0.5 / 3, 15);
    // the tied row has peakiness 0
    expect(r.peakiness).toBeCloseTo((0 + 6 / 7 + 1) / 3, 15);
    const random = createRandom(3);
    for (let k = 0; k < 10; k++) {
      const permuted = apMetric(permute(table, permutation(3, random), permutation(3, random)));
      expect(permuted.associativity).toBeCloseTo(r.associativity, 15);
      expect(permuted.ap).toBeCloseTo(r.ap, 15);
    }
  });

  it("is invariant to row and column permutations of random tables", () => {
    const random = createRandom(11);
    for (let k = 0; k < 20; k++) {
      const rows = 2 + random.int(5);
      const cols = 1 + random.int(6);
      const table = Array.from({ length: rows }, () => Array.from({ length: cols }, () => random.int(4)));
      const base = apMetric(table);
      const p = apMetric(permute(table, permutation(rows, random), permutation(cols, random)));
      expect(p.ap).toBeCloseTo(base.ap, 14);
      expect(base.ap).toBeGreaterThanOrEqual(0);
      expect(base.ap).toBeLessThanOrEqual(1);
    }
  });

  it("a single class: A = 1 (no pairs), AP driven by peakiness", () => {
    expect(apMetric([[10]])).toEqual({ associativity: 1, peakiness: 1, ap: 1 });
    expect(apMetric([[5, 5]]).ap).toBe(0);
    expect(apMetric([[]]).ap).toBe(1);
  });
});

describe("f1Contingency", () => {
  it("is the harmonic mean of truth-class accuracy and cluster purity", () => {
    const r = f1Contingency([
      [8, 2],
      [1, 4],
    ]);
    expect(r.truthClassAccuracy).toBeCloseTo((0.8 + 0.8) / 2, 15);
    expect(r.clusterPurity).toBeCloseTo((8 / 9 + 4 / 6) / 2, 15);
    const tca = 0.8;
    const cp = (8 / 9 + 4 / 6) / 2;
    expect(r.f1).toBeCloseTo((2 * tca * cp) / (tca + cp), 15);
  });

  it("is 1 on a permuted diagonal, skips empty rows and columns, and is permutation invariant", () => {
    expect(f1Contingency([
      [0, 3, 0],
      [2, 0, 0],
      [0, 0, 0],
    ])).toEqual({ truthClassAccuracy: 1, clusterPurity: 1, f1: 1 });
    const t = [
      [3, 1, 0],
      [1, 1, 5],
    ];
    const a = f1Contingency(t);
    const b = f1Contingency(permute(t, [1, 0], [2, 0, 1]));
    expect(b.f1).toBeCloseTo(a.f1, 15);
  });

  it("one cluster for everything: purity is the largest class share", () => {
    const r = f1Contingency([[6], [2], [2]]);
    expect(r.truthClassAccuracy).toBe(1);
    expect(r.clusterPurity).toBeCloseTo(0.6, 15);
  });
});
