/**
 * The expected pair counts of expected (soft, weighted) tables, checked against brute force:
 * exact enumeration of every hard outcome for a few items, and averaging over sampled hard
 * tables for many.
 */
import { describe, expect, it } from "vitest";
import { ariFromTable } from "./ari";
import { contingency } from "./contingency";
import { expectedContingency, type SoftLabels } from "./expected-contingency";
import { fowlkesMallowsFromTable } from "./fowlkes-mallows";
import { pairConfusionFromTable, type PairConfusion } from "./pair-counts";
import { createRandom, type RandomSource } from "@/lib/random";
import { denseTable } from "./table";

/** each item's distribution peaks at tops[i] (or a random column) by `peak` over uniform noise */
function softLabels(n: number, k: number, random: RandomSource, peak: number, tops?: number[]): SoftLabels {
  const probs = new Float64Array(n * k); // float64 so each row sums to 1 to ~1e-16
  for (let i = 0; i < n; i++) {
    let sum = 0;
    const top = tops ? tops[i] % k : random.int(k);
    for (let j = 0; j < k; j++) {
      const v = random.next() + (j === top ? peak : 0);
      probs[i * k + j] = v;
      sum += v;
    }
    for (let j = 0; j < k; j++) probs[i * k + j] /= sum;
  }
  return { probs, k };
}

function draw(soft: SoftLabels, i: number, u: number): number {
  let acc = 0;
  for (let j = 0; j < soft.k; j++) {
    acc += soft.probs[i * soft.k + j];
    if (u < acc) return j;
  }
  return soft.k - 1;
}

const KEYS: (keyof PairConfusion)[] = ["tp", "fp", "fn", "tn"];

describe("pair counts", () => {
  it("are sklearn's pair_confusion_matrix on hard labels", () => {
    // sklearn: pair_confusion_matrix([0, 0, 1, 2], [0, 0, 1, 1]) = [[8, 2], [0, 2]]
    expect(pairConfusionFromTable(contingency([0, 0, 1, 2], [0, 0, 1, 1]))).toEqual({ tn: 8, fp: 2, fn: 0, tp: 2 });
  });

  it("of an expected table equal the exact average over every hard outcome (weighted)", () => {
    const random = createRandom(17);
    const n = 4;
    const rows = softLabels(n, 2, random, 0.5);
    const cols = softLabels(n, 3, random, 0.5);
    const weights = [1, 2.5, 0.5, 1.25];
    const expected = pairConfusionFromTable(expectedContingency(rows, cols, weights));
    const mean: Record<keyof PairConfusion, number> = { tp: 0, fp: 0, fn: 0, tn: 0 };
    const outcomes = 6 ** n;
    for (let o = 0; o < outcomes; o++) {
      let prob = 1;
      const t: number[] = [];
      const p: number[] = [];
      for (let i = 0, code = o; i < n; i++, code = Math.floor(code / 6)) {
        t.push(code % 2);
        p.push(Math.floor(code / 2) % 3);
        prob *= rows.probs[i * 2 + t[i]] * cols.probs[i * 3 + p[i]];
      }
      // one-hot sides keep all K columns, so hard and expected tables share one shape
      const hard = expectedContingency(
        { probs: Float32Array.from({ length: n * 2 }, (_, j) => (t[Math.floor(j / 2)] === j % 2 ? 1 : 0)), k: 2 },
        { probs: Float32Array.from({ length: n * 3 }, (_, j) => (p[Math.floor(j / 3)] === j % 3 ? 1 : 0)), k: 3 },
        weights,
      );
      const pc = pairConfusionFromTable(hard);
      for (const key of KEYS) mean[key] += prob * pc[key];
    }
    for (const key of KEYS) expect(expected[key], key).toBeCloseTo(mean[key], 9);
    // the plug-in n_ij (n_ij - 1) on the same expected table is biased
    const plugIn = pairConfusionFromTable(denseTable(expectedContingency(rows, cols, weights)));
    expect(Math.abs(plugIn.tp - mean.tp)).toBeGreaterThan(0.5);
  });

  it("match the average over sampled hard tables for many items; ARI and FMI follow", () => {
    const random = createRandom(23);
    const n = 300;
    const tops = Array.from({ length: n }, () => random.int(4));
    const rows = softLabels(n, 4, random, 6, tops);
    const cols = softLabels(n, 5, random, 6, tops);
    const table = expectedContingency(rows, cols);
    const expected = pairConfusionFromTable(table);
    const samples = 2000;
    const sum: Record<string, number> = { tp: 0, fp: 0, fn: 0, tn: 0, ari: 0, fmi: 0 };
    const sumSq: Record<string, number> = { tp: 0, fp: 0, fn: 0, tn: 0 };
    const t = new Int32Array(n);
    const p = new Int32Array(n);
    for (let s = 0; s < samples; s++) {
      for (let i = 0; i < n; i++) {
        t[i] = draw(rows, i, random.next());
        p[i] = draw(cols, i, random.next());
      }
      const hard = contingency(t, p);
      const pc = pairConfusionFromTable(hard);
      for (const key of KEYS) {
        sum[key] += pc[key];
        sumSq[key] += pc[key] * pc[key];
      }
      sum.ari += ariFromTable(hard);
      sum.fmi += fowlkesMallowsFromTable(hard);
    }
    for (const key of KEYS) {
      const mean = sum[key] / samples;
      const se = Math.sqrt((sumSq[key] / samples - mean * mean) / samples);
      expect(Math.abs(expected[key] - mean), key).toBeLessThan(4 * se);
    }
    const plugIn = denseTable(table);
    const meanAri = sum.ari / samples;
    const meanFmi = sum.fmi / samples;
    // a ratio of expectations, not the expectation of a ratio: close at this N, and much closer
    // than the plug-in
    expect(ariFromTable(table)).toBeGreaterThan(0.2);
    expect(Math.abs(ariFromTable(table) - meanAri)).toBeLessThan(0.002);
    expect(Math.abs(fowlkesMallowsFromTable(table) - meanFmi)).toBeLessThan(0.002);
    expect(Math.abs(ariFromTable(plugIn) - meanAri)).toBeGreaterThan(10 * Math.abs(ariFromTable(table) - meanAri));
    expect(Math.abs(fowlkesMallowsFromTable(plugIn) - meanFmi)).toBeGreaterThan(
      10 * Math.abs(fowlkesMallowsFromTable(table) - meanFmi),
    );
  });

  it("of a hard expectedContingency equal those of contingency (weights 1)", () => {
    const t = [0, 0, 1, 1, 2, 2, 2];
    const p = [1, 1, 1, 0, 0, 0, 3];
    expect(pairConfusionFromTable(expectedContingency(t, p))).toEqual(pairConfusionFromTable(contingency(t, p)));
    expect(ariFromTable(expectedContingency(t, p))).toBe(ariFromTable(contingency(t, p)));
  });
});
