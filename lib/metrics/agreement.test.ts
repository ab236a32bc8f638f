import { describe, expect, it } from "vitest";
import { cohenKappa, krippendorffAlphaNominal } from "./agreement";

describe("cohenKappa", () => {
  it("matches a hand computation: p_o = 3/4, p_e = 1/2 gives 1/2", () => {
    // rater A: a a b b; rater B: a b b b -> p_A = (1/2, 1/2), p_B = (1/4, 3/4), p_e = 1/8 + 3/8
    expect(cohenKappa(["a", "a", "b", "b"], ["a", "b", "b", "b"])).toBeCloseTo(0.5, 12);
  });

  it("is 1 for perfect agreement and 0 when the raters share no class (p_o = p_e = 0)", () => {
    expect(cohenKappa([0, 1, 2, 1], [0, 1, 2, 1])).toBe(1);
    expect(cohenKappa([0, 1, 2, 1], [5, 6, 7, 6])).toBe(0);
  });

  it("is -1 for two raters who always disagree on a balanced two-class set", () => {
    // p_o = 0, p_e = 1/2
    expect(cohenKappa([0, 1, 0, 1], [1, 0, 1, 0])).toBeCloseTo(-1, 12);
  });

  it("is undefined (NaN) when both raters used a single class", () => {
    expect(cohenKappa([3, 3, 3], [3, 3, 3])).toBeNaN();
    expect(cohenKappa([], [])).toBeNaN();
  });

  it("refuses ratings of different lengths", () => {
    expect(() => cohenKappa([1], [1, 2])).toThrow(RangeError);
  });
});

describe("krippendorffAlphaNominal", () => {
  it("matches a hand computation with two values per unit: 16/30", () => {
    // o_aa = 2, o_ab = o_ba = 1, o_bb = 4; n_a = 3, n_b = 5, n = 8; alpha = 1 - 7 * 2 / (2 * 3 * 5)
    expect(krippendorffAlphaNominal([["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"]])).toBeCloseTo(16 / 30, 12);
  });

  it("matches a hand computation with three raters: 0.6", () => {
    // unit weights 1/2: o_aa = 3 + 1, o_ab = o_ba = 1, o_bb = 3; n_a = 5, n_b = 4, n = 9; 1 - 8 * 2 / 40
    expect(krippendorffAlphaNominal([[0, 0, 0], [0, 0, 1], [1, 1, 1]])).toBeCloseTo(0.6, 12);
  });

  it("leaves out units with a single value (missing ratings)", () => {
    const full = krippendorffAlphaNominal([["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"]]);
    expect(krippendorffAlphaNominal([["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"], ["a"], []])).toBe(full);
  });

  it("is 1 for perfect agreement and NaN when nothing can disagree", () => {
    expect(krippendorffAlphaNominal([[1, 1], [2, 2, 2], [1, 1]])).toBe(1);
    expect(krippendorffAlphaNominal([[1, 1], [1, 1]])).toBeNaN();
    expect(krippendorffAlphaNominal([[1]])).toBeNaN();
  });

  it("agrees with Cohen's kappa's sign and is close to it for two raters on many units", () => {
    const a = [0, 0, 1, 1, 2, 2, 0, 1, 2, 2, 1, 0];
    const b = [0, 1, 1, 1, 2, 0, 0, 1, 2, 2, 2, 0];
    const alpha = krippendorffAlphaNominal(a.map((x, i) => [x, b[i]]));
    expect(alpha).toBeGreaterThan(0.5);
    expect(Math.abs(alpha - cohenKappa(a, b))).toBeLessThan(0.05);
  });
});
