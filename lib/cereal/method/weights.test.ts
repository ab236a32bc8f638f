import { describe, expect, it } from "vitest";
import type { Draw } from "./designs";
import { batchesByRound, inverseInclusionWeight, isProbabilityDesign, weightedAccuracy } from "./weights";

const draw = (row: number, design: Draw["design"], q: number, round: number, order: number): Draw => ({ row, design, score: null, q, order, round });

describe("inclusion weights", () => {
  it("weights probability designs by 1/q and refuses top-score", () => {
    expect(inverseInclusionWeight(draw(0, "uniform", 0.25, 0, 0))).toBe(4);
    expect(inverseInclusionWeight(draw(0, "proportional", 0.1, 1, 0))).toBeCloseTo(10, 12);
    expect(inverseInclusionWeight(draw(0, "top-score", 1, 1, 0))).toBeNull();
    expect(isProbabilityDesign("top-score")).toBe(false);
  });

  it("groups the labeled rows by the round that drew them", () => {
    const draws = [draw(5, "uniform", 0.5, 0, 0), draw(7, "uniform", 0.5, 0, 1), draw(2, "top-score", 1, 1, 2), draw(9, "uniform", 0.2, 2, 3)];
    expect(batchesByRound(draws)).toEqual([
      { round: 0, positions: [0, 1] },
      { round: 1, positions: [2] },
      { round: 2, positions: [3] },
    ]);
  });

  it("weighted accuracy is the Hajek ratio sum w [right] / sum w", () => {
    // right, wrong, right with weights 1, 2, 5: 6 / 8
    expect(weightedAccuracy([0, 1, 2], [0, 0, 2], [1, 2, 5])).toBeCloseTo(0.75, 12);
    expect(weightedAccuracy([0, 1, 2], [0, 0, 2], null)).toBeCloseTo(2 / 3, 12);
  });
});
