import { describe, expect, it } from "vitest";
import { contingency } from "./contingency";
import { denseLabels } from "./labels";
import { asTable, denseTable } from "./table";

describe("denseLabels", () => {
  it("maps any integers to 0..k-1 in increasing label order", () => {
    const d = denseLabels([5, -1, 5, 1_000_000_000, -1, 7]);
    expect(Array.from(d.ids)).toEqual([1, 0, 1, 3, 0, 2]);
    expect(d.k).toBe(4);
    expect(Array.from(d.values)).toEqual([-1, 5, 7, 1_000_000_000]);
    expect(Array.from(denseLabels(Int32Array.from([3, 3, 2])).ids)).toEqual([1, 1, 0]);
  });

  it("rejects NaN", () => {
    expect(() => denseLabels([0, NaN])).toThrow(RangeError);
  });
});

describe("contingency", () => {
  it("counts n_ij with truth rows and cluster columns, as sklearn's contingency_matrix", () => {
    // sklearn: contingency_matrix([1, 1, 2, 2, 2, -3], [0, 1, 1, 1, 0, 0])
    const t = contingency([1, 1, 2, 2, 2, -3], [0, 1, 1, 1, 0, 0]);
    expect(denseTable(t)).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    expect(Array.from(t.rowSums)).toEqual([1, 2, 3]);
    expect(Array.from(t.colSums)).toEqual([3, 3]);
    expect(t.total).toBe(6);
    expect(t.integral).toBe(true);
  });

  it("stays sparse for huge tables (all singletons of 5000 items: 25M cells, 5000 stored)", () => {
    const n = 5000;
    const ids = Array.from({ length: n }, (_, i) => i * 3 - 7000);
    const t = contingency(ids, ids.slice().reverse());
    expect(t.rows).toBe(n);
    expect(t.cols).toBe(n);
    expect(t.cellValue.length).toBe(n);
    expect(t.total).toBe(n);
    // cell (i, n-1-i) for every i, sorted by row
    expect(Array.from(t.cellCol.slice(0, 3))).toEqual([n - 1, n - 2, n - 3]);
  });

  it("asTable converts plain matrices, keeping zero rows and rejecting negative cells", () => {
    const t = asTable([
      [0, 2],
      [0, 0],
      [1.5, 0],
    ]);
    expect(t.rows).toBe(3);
    expect(t.cellValue.length).toBe(2);
    expect(t.integral).toBe(false);
    expect(() => asTable([[1, -1]])).toThrow(RangeError);
  });
});

describe("denseLabels on wide or fractional values (hashing path)", () => {
  it("still orders ids by label value", () => {
    const d = denseLabels([1e12, -5e11, 0.5, 1e12, 0.5]);
    expect(Array.from(d.ids)).toEqual([2, 0, 1, 2, 1]);
    expect(Array.from(d.values)).toEqual([-5e11, 0.5, 1e12]);
  });
});

describe("contingency with a shape", () => {
  it("keeps class and cluster indices as they are: classes and clusters with no item stay as empty rows and columns", () => {
    const table = contingency([0, 2, 2, 0], [1, 1, 0, 1], { rows: 4, cols: 3 });
    expect(denseTable(table)).toEqual([
      [0, 2, 0],
      [0, 0, 0],
      [1, 1, 0],
      [0, 0, 0],
    ]);
    expect(table.total).toBe(4);
    // without the shape the empty row and columns go (scikit-learn's contingency_matrix)
    expect(denseTable(contingency([0, 2, 2, 0], [1, 1, 0, 1]))).toEqual([
      [0, 2],
      [1, 1],
    ]);
  });

  it("refuses an index outside the shape, naming it", () => {
    expect(() => contingency([0, 5], [0, 0], { rows: 4, cols: 1 })).toThrow(/class 1 is 5, outside 0\.\.3/);
    expect(() => contingency([0, 1], [0, -1], { rows: 4, cols: 2 })).toThrow(/cluster 1 is -1/);
  });
});
