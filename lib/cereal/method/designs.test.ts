import { describe, expect, it } from "vitest";
import { drawProportional, drawTopScore, drawUniform, inclusionProbabilities, recordDraws } from "./designs";
import { Random } from "../../random/named-streams";

const pool = Int32Array.from([10, 11, 12, 13, 14, 15, 16, 17]);
const scores = Float64Array.from([0, 1, 2, 3, 4, 5, 6, 20]);

describe("uniform design", () => {
  it("draws n distinct pool rows with q = n / |U|", () => {
    const draws = drawUniform(pool, 3, new Random(7));
    expect(draws).toHaveLength(3);
    expect(new Set(draws.map((d) => d.row)).size).toBe(3);
    expect(draws.every((d) => pool.includes(d.row) && d.q === 3 / 8 && d.score === null)).toBe(true);
  });

  it("takes the whole pool when n exceeds it", () => {
    expect(drawUniform(pool, 20, new Random(7)).map((d) => d.row).sort()).toEqual(Array.from(pool));
  });
});

describe("top-score design", () => {
  it("takes the n best, best first, with q = 1", () => {
    const draws = drawTopScore(pool, scores, 3, new Random(1));
    expect(draws.map((d) => d.row)).toEqual([17, 16, 15]);
    expect(draws.map((d) => d.score)).toEqual([20, 6, 5]);
    expect(draws.every((d) => d.q === 1)).toBe(true);
  });

  it("breaks ties at the cut at random, with q = places left / rows tied", () => {
    const tied = Float64Array.from([9, 1, 1, 1, 1, 0, 0, 0]);
    const counts = new Map<number, number>();
    for (let seed = 0; seed < 400; seed++) {
      const draws = drawTopScore(pool, tied, 3, new Random(seed));
      expect(draws[0]).toEqual({ row: 10, score: 9, q: 1 });
      // 2 places for 4 tied rows
      expect(draws.slice(1).every((d) => d.score === 1 && d.q === 0.5)).toBe(true);
      for (const d of draws.slice(1)) counts.set(d.row, (counts.get(d.row) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([11, 12, 13, 14]);
    for (const c of counts.values()) expect(Math.abs(c / 400 - 0.5)).toBeLessThan(0.1);
  });
});

describe("proportional design", () => {
  it("q = n ((1 - eps) s / sum + eps / |U|), by hand on 4 rows", () => {
    // p = 0.9 * (1, 2, 3, 4) / 10 + 0.1 / 4 = (0.115, 0.205, 0.295, 0.385); q = 2p
    const q = inclusionProbabilities(Float64Array.from([1, 2, 3, 4]), 2, 0.1);
    expect(Array.from(q).map((v) => Number(v.toFixed(12)))).toEqual([0.23, 0.41, 0.59, 0.77]);
  });

  it("q sums to n, capping rows at 1 and rescaling the rest", () => {
    const q = inclusionProbabilities(scores, 3, 0.1);
    expect(q.reduce((a, b) => a + b, 0)).toBeCloseTo(3, 12);
    // the score-20 row would get 3 * (0.9 * 20 / 41 + 0.1 / 8) = 1.35: it is taken for sure
    expect(q[7]).toBe(1);
    expect(Math.max(...q.slice(0, 7))).toBeLessThan(1);
    // the others keep their proportions: q ~ 0.9 s / 41 + 0.1 / 8
    const p = (s: number) => (0.9 * s) / 41 + 0.1 / 8;
    expect(q[6] / q[1]).toBeCloseTo(p(6) / p(1), 12);
  });

  it("realises q: every draw has n rows, inclusion frequencies match q, and Horvitz-Thompson is unbiased", () => {
    const n = 3;
    const q = inclusionProbabilities(scores, n, 0.1);
    const random = new Random(2024);
    const draws = 40_000;
    const hits = new Float64Array(pool.length);
    let htTotal = 0;
    for (let t = 0; t < draws; t++) {
      const batch = drawProportional(pool, scores, n, random, 0.1);
      expect(batch.length).toBe(n);
      let ht = 0;
      for (const d of batch) {
        hits[d.row - 10]++;
        ht += 1 / d.q;
        expect(d.q).toBe(q[d.row - 10]);
      }
      htTotal += ht;
    }
    for (let i = 0; i < pool.length; i++) {
      const se = Math.sqrt((q[i] * (1 - q[i])) / draws);
      expect(Math.abs(hits[i] / draws - q[i])).toBeLessThanOrEqual(4 * se + 1e-12);
    }
    // sum over the draws of 1/q estimates |U| = 8
    expect(htTotal / draws).toBeCloseTo(8, 1);
  });

  it("falls back to uniform q when every score is 0", () => {
    expect(Array.from(inclusionProbabilities(new Float64Array(4), 2))).toEqual([0.5, 0.5, 0.5, 0.5]);
  });
});

describe("draw records", () => {
  it("stamp design, round and a continuing draw order", () => {
    const records = recordDraws([{ row: 5, score: 0.3, q: 0.2 }, { row: 9, score: 0.1, q: 0.4 }], "proportional", 2, 100);
    expect(records).toEqual([
      { row: 5, design: "proportional", score: 0.3, q: 0.2, order: 100, round: 2 },
      { row: 9, design: "proportional", score: 0.1, q: 0.4, order: 101, round: 2 },
    ]);
  });
});

describe("proportional design, small pools", () => {
  it("takes every row with q = 1 when n >= |U|", () => {
    expect(Array.from(inclusionProbabilities(Float64Array.from([5, 1, 0]), 4))).toEqual([1, 1, 1]);
    const draws = drawProportional(Int32Array.from([7, 8, 9]), Float64Array.from([5, 1, 0]), 4, new Random(0));
    expect(draws.map((d) => d.row).sort()).toEqual([7, 8, 9]);
  });
});
