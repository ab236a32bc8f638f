import { describe, expect, it } from "vitest";
import { goldenSectionMinimum } from "./golden-section";

describe("goldenSectionMinimum", () => {
  it("finds the minimum of a unimodal function inside the bracket", () => {
    expect(goldenSectionMinimum((x) => (x - 0.3) ** 2, -1, 2, 40)).toBeCloseTo(0.3, 6);
    expect(goldenSectionMinimum((x) => Math.abs(Math.log(x) - 1), 0.5, 10, 40)).toBeCloseTo(Math.E, 5);
  });

  it("goes to the bracket's edge when the function only falls or only rises", () => {
    expect(goldenSectionMinimum((x) => -x, 0, 1, 40)).toBeCloseTo(1, 6);
    expect(goldenSectionMinimum((x) => x, 0, 1, 40)).toBeCloseTo(0, 6);
  });

  it("shrinks the bracket by the golden ratio each step, calling f once per step after the first two", () => {
    let calls = 0;
    const x = goldenSectionMinimum((v) => {
      calls++;
      return (v - 5) ** 2;
    }, 0, 8, 17);
    expect(calls).toBe(19);
    // after 17 steps the bracket is 8 x 0.618^17, about 0.0023 wide, and holds the minimum
    expect(Math.abs(x - 5)).toBeLessThan(0.0023);
  });
});
