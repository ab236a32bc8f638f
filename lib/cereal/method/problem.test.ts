import { describe, expect, it } from "vitest";
import { positionsIn } from "./problem";

describe("positionsIn", () => {
  it("finds each row's position in an increasing pool, in the order asked", () => {
    const pool = Int32Array.from([2, 3, 5, 8, 13, 21]);
    expect(positionsIn(pool, [21, 2, 8, 13])).toEqual([5, 0, 3, 4]);
    expect(positionsIn(pool, [])).toEqual([]);
  });

  it("says which row is missing from the pool", () => {
    expect(() => positionsIn(Int32Array.from([1, 4]), [4, 2])).toThrow(/row 2 is not in the pool/);
  });
});
