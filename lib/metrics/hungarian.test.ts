import { describe, expect, it } from "vitest";
import { clusteringAccuracy, clusteringAccuracyFromTable } from "./accuracy";
import { linearSumAssignment } from "./hungarian";
import { createRandom } from "@/lib/random";

/** best assignment by enumerating every injection of the smaller side into the larger */
function bruteForce(cost: number[], rows: number, cols: number, maximize: boolean): number {
  let best = maximize ? -Infinity : Infinity;
  const transpose = rows > cols;
  const nr = transpose ? cols : rows;
  const nc = transpose ? rows : cols;
  const at = (r: number, c: number) => (transpose ? cost[c * cols + r] : cost[r * cols + c]);
  const used = new Array(nc).fill(false);
  const go = (r: number, sum: number) => {
    if (r === nr) {
      best = maximize ? Math.max(best, sum) : Math.min(best, sum);
      return;
    }
    for (let c = 0; c < nc; c++) {
      if (used[c]) continue;
      used[c] = true;
      go(r + 1, sum + at(r, c));
      used[c] = false;
    }
  };
  go(0, 0);
  return best;
}

describe("linearSumAssignment", () => {
  it("matches brute force on random square and rectangular matrices, min and max", () => {
    const random = createRandom(5);
    for (let k = 0; k < 150; k++) {
      const rows = 1 + random.int(6);
      const cols = 1 + random.int(6);
      const integers = k % 2 === 0;
      const cost = Array.from({ length: rows * cols }, () => (integers ? random.int(5) : random.next() * 20 - 10));
      for (const maximize of [false, true]) {
        const a = linearSumAssignment(cost, rows, cols, maximize);
        expect(a.total).toBeCloseTo(bruteForce(cost, rows, cols, maximize), 10);
        // a valid injection whose cost is the reported total
        const assigned = Array.from(a.rowToCol).filter((c) => c >= 0);
        expect(assigned).toHaveLength(Math.min(rows, cols));
        expect(new Set(assigned).size).toBe(assigned.length);
        let total = 0;
        a.rowToCol.forEach((c, r) => {
          if (c >= 0) total += cost[r * cols + c];
        });
        expect(total).toBeCloseTo(a.total, 10);
      }
    }
  });

  it("solves the textbook 3 x 3 example", () => {
    const a = linearSumAssignment([4, 1, 3, 2, 0, 5, 3, 2, 2], 3, 3);
    expect(a.total).toBe(5);
    expect(Array.from(a.rowToCol)).toEqual([1, 0, 2]);
  });
});

describe("clusteringAccuracy", () => {
  it("matches brute force over the whole table on random tables (several components)", () => {
    const random = createRandom(8);
    for (let k = 0; k < 60; k++) {
      const rows = 1 + random.int(6);
      const cols = 1 + random.int(6);
      const cells = Array.from({ length: rows * cols }, () => (random.next() < 0.5 ? 0 : random.int(9)));
      const table = Array.from({ length: rows }, (_, r) => cells.slice(r * cols, (r + 1) * cols));
      const total = cells.reduce((s, v) => s + v, 0);
      if (total === 0) continue;
      expect(clusteringAccuracyFromTable(table)).toBeCloseTo(bruteForce(cells, rows, cols, true) / total, 12);
    }
  });

  it("handles real-valued tables and all-singleton labellings of many items", () => {
    expect(clusteringAccuracyFromTable([
      [0.5, 2.25],
      [1.5, 0.75],
    ])).toBeCloseTo((2.25 + 1.5) / 5, 15);
    const n = 20000;
    const ids = Array.from({ length: n }, (_, i) => i);
    const halves = ids.map((i) => i % 2);
    expect(clusteringAccuracy(ids, ids.slice().reverse())).toBe(1);
    expect(clusteringAccuracy(halves, ids)).toBeCloseTo(2 / n, 15);
  });
});
