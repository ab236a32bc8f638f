/**
 * E[MI] against its definition (the average MI over all permutations of one labelling) and
 * against a direct log-factorial sum; AMI on real-valued tables (rounded-marginals convention).
 */
import { describe, expect, it } from "vitest";
import { ami, amiFromTable, roundMarginals } from "./ami";
import { contingency } from "./contingency";
import { entropyOfCounts } from "./entropy";
import { expectedContingency } from "./expected-contingency";
import { cellExpectedMutualInfo, expectedMutualInfo } from "./expected-mutual-info";
import { mutualInfo, mutualInfoFromTable } from "./mutual-info";
import { createRandom } from "@/lib/random";

function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

function logFactorial(n: number): number {
  let s = 0;
  for (let k = 2; k <= n; k++) s += Math.log(k);
  return s;
}

describe("expectedMutualInfo", () => {
  it("is the mean MI over every permutation of the predicted labels", () => {
    const t = [0, 0, 0, 1, 1, 2, 2];
    const p = [0, 0, 1, 1, 1, 1, 2];
    const all = permutations(p);
    const mean = all.reduce((s, q) => s + mutualInfo(t, q), 0) / all.length;
    const table = contingency(t, p);
    expect(expectedMutualInfo(table.rowSums, table.colSums)).toBeCloseTo(mean, 13);
  });

  it("matches the direct hypergeometric sum with log-factorials", () => {
    const random = createRandom(4);
    for (let k = 0; k < 40; k++) {
      const N = 2 + random.int(400);
      const a = 1 + random.int(N);
      const b = 1 + random.int(N);
      let direct = 0;
      const lf = (x: number) => logFactorial(x);
      for (let n = Math.max(1, a + b - N); n <= Math.min(a, b); n++) {
        const logP = lf(a) + lf(b) + lf(N - a) + lf(N - b) - lf(N) - lf(n) - lf(a - n) - lf(b - n) - lf(N - a - b + n);
        direct += (n / N) * Math.log((N * n) / (a * b)) * Math.exp(logP);
      }
      expect(cellExpectedMutualInfo(a, b, N)).toBeCloseTo(direct, 11);
    }
  });

  it("is fast and finite for a million items in 100 x 100 classes, and log N for all singletons", () => {
    const a = new Float64Array(100).fill(10_000);
    const started = performance.now();
    const emi = expectedMutualInfo(a, a);
    expect(performance.now() - started).toBeLessThan(2000);
    // E[MI] ~ (R - 1)(C - 1) / (2N) for large N (Vinh et al. 2010)
    expect(Math.abs(emi / ((99 * 99) / 2e6) - 1)).toBeLessThan(0.01);
    const ones = new Float64Array(100_000).fill(1);
    expect(expectedMutualInfo(ones, ones)).toBeCloseTo(Math.log(100_000), 12);
  });

  it("rejects marginals that are not whole counts or do not agree", () => {
    expect(() => expectedMutualInfo([1.5, 2], [3.5])).toThrow(RangeError);
    expect(() => expectedMutualInfo([1, 2], [4])).toThrow(RangeError);
  });
});

describe("AMI on real-valued tables", () => {
  it("roundMarginals rounds by largest remainder to round(total)", () => {
    expect(Array.from(roundMarginals([2.4, 2.4, 2.2]))).toEqual([3, 2, 2]);
    expect(Array.from(roundMarginals([0.3, 0.3, 0.3, 1.1]))).toEqual([1, 0, 0, 1]); // equal remainders: lower index first
    expect(Array.from(roundMarginals([3, 4]))).toEqual([3, 4]);
  });

  it("uses MI and entropies of the real table and E[MI] of its rounded marginals", () => {
    const table = [
      [3.6, 0.8, 0.2],
      [0.4, 2.9, 1.1],
      [0.3, 0.7, 4.0],
    ];
    const rows = table.map((r) => r.reduce((s, v) => s + v, 0));
    const cols = [0, 1, 2].map((c) => table.reduce((s, r) => s + r[c], 0));
    const emi = expectedMutualInfo(roundMarginals(rows), roundMarginals(cols));
    const mi = mutualInfoFromTable(table);
    const mean = (entropyOfCounts(rows) + entropyOfCounts(cols)) / 2;
    expect(amiFromTable(table)).toBeCloseTo((mi - emi) / (mean - emi), 14);
    expect(Array.from(roundMarginals(rows))).toEqual([5, 4, 5]);
  });

  it("agrees with hard AMI when the soft rows are one-hot, and tracks it as softness grows", () => {
    const random = createRandom(12);
    const n = 400;
    const t = Array.from({ length: n }, () => random.int(5));
    const p = t.map((v) => (random.next() < 0.7 ? v : random.int(5)));
    const oneHot = new Float32Array(n * 5);
    p.forEach((v, i) => (oneHot[i * 5 + v] = 1));
    const hard = ami(t, p);
    expect(amiFromTable(expectedContingency(t, oneHot))).toBeCloseTo(hard, 12);
    // blur each row slightly: AMI moves a little, not to a different regime
    const blurred = oneHot.map((v) => 0.95 * v + 0.01);
    const soft = amiFromTable(expectedContingency(t, blurred));
    expect(soft).toBeLessThan(hard);
    expect(soft).toBeGreaterThan(hard - 0.1);
  });
});
