import { describe, expect, it } from "vitest";
import { contingency } from "./contingency";
import { expectedContingency } from "./expected-contingency";
import { denseTable } from "./table";

describe("expectedContingency", () => {
  it("equals contingency for hard labels on both sides", () => {
    const t = [3, 3, -1, 7, 7, 7];
    const p = [0, 1, 1, 1, 2, 2];
    expect(denseTable(expectedContingency(t, p))).toEqual(denseTable(contingency(t, p)));
  });

  it("sums w_i r_i (outer) c_i for soft columns, K inferred from the hard side", () => {
    const t = [0, 1, 1];
    const soft = Float32Array.from([0.5, 0.5, 0.25, 0.75, 1, 0]);
    const table = expectedContingency(t, soft, [2, 1, 1]);
    expect(denseTable(table)).toEqual([
      [1, 1],
      [1.25, 0.75],
    ]);
    expect(table.total).toBeCloseTo(4, 12);
    // sum_i w_i^2 |c_i|^2 = 4 * 0.5 + 1 * 0.625 + 1 * 1
    expect(table.pairDiagonal.cols).toBeCloseTo(3.625, 12);
    expect(table.pairDiagonal.items).toBe(6);
  });

  it("takes soft rows and soft columns as { probs, k }", () => {
    const rows = { probs: Float32Array.from([1, 0, 0, 1]), k: 2 };
    const cols = { probs: Float32Array.from([0.5, 0.5, 0, 1]), k: 2 };
    expect(denseTable(expectedContingency(rows, cols))).toEqual([
      [0.5, 0.5],
      [0, 1],
    ]);
  });

  it("rejects two bare Float32Arrays (N unknown) and negative probabilities", () => {
    expect(() => expectedContingency(new Float32Array(4), new Float32Array(4))).toThrow(/probs, k/);
    expect(() => expectedContingency([0, 1], Float32Array.from([1, -1, 0, 1]))).toThrow(RangeError);
  });

  it("takes hard ids with k stated: the same table as one-hot soft columns, empty clusters kept", () => {
    const rows = { probs: Float32Array.from([0.25, 0.75, 1, 0, 0.5, 0.5]), k: 2 };
    const ids = Int32Array.from([0, 2, 0]);
    const oneHot = { probs: Float32Array.from([1, 0, 0, 0, 0, 1, 1, 0, 0]), k: 3 };
    const hard = expectedContingency(rows, { ids, k: 3 }, [2, 1, 1]);
    expect(denseTable(hard)).toEqual([
      [1, 0, 1],
      [2, 0, 0],
    ]);
    expect(hard).toEqual(expectedContingency(rows, oneHot, [2, 1, 1]));
  });

  it("rejects hard ids outside 0..k-1 or of another length, naming the id", () => {
    const rows = { probs: Float32Array.from([1, 0, 0, 1]), k: 2 };
    expect(() => expectedContingency(rows, { ids: Int32Array.from([0, 3]), k: 3 })).toThrow(/id 1 is 3, outside 0..2/);
    expect(() => expectedContingency([0, 1], { ids: Int32Array.from([0]), k: 2 })).toThrow(/1 ids for 2 items/);
  });
});
