import { describe, expect, it } from "vitest";
import { anchorOrder, verificationSteps } from "./class-verification";

describe("anchorOrder", () => {
  it("asks the most probable class first, ties in discovery order", () => {
    expect(anchorOrder([2, 0, 1], [0.1, 0.6, 0.3], undefined)).toEqual([1, 2, 0]);
    expect(anchorOrder([2, 0, 1], [0.2, 0.2, 0.6], undefined)).toEqual([2, 0, 1]);
  });
  it("with `top`, asks only the model's most probable class first, then the cluster's most labeled; `cluster` ignores the model", () => {
    const counts = new Map([[0, 5], [2, 1]]);
    expect(anchorOrder([2, 0, 1], [0.1, 0.6, 0.3], counts, "top")).toEqual([1, 0, 2]);
    expect(anchorOrder([2, 0, 1], [0.1, 0.6, 0.3], counts, "model")).toEqual([1, 2, 0]);
    expect(anchorOrder([2, 0, 1], [0.1, 0.6, 0.3], counts, "cluster")).toEqual([0, 2, 1]);
  });
  it("without a model, asks the classes most often labeled in the item's cluster first", () => {
    expect(anchorOrder([2, 0, 1], null, new Map([[1, 3], [0, 1]]))).toEqual([1, 0, 2]);
    expect(anchorOrder([2, 0, 1], null, undefined)).toEqual([2, 0, 1]);
  });
});

describe("verificationSteps", () => {
  it("counts one answer per anchor asked, and every anchor for a new class", () => {
    // rows 0..5: classes 0, 1, 0, 2, 1, 2; one cluster; no model
    const labels = [0, 1, 0, 2, 1, 2];
    const steps = verificationSteps({ rows: [0, 1, 2, 3, 4, 5], labels, clusterOf: [0, 0, 0, 0, 0, 0], proba: () => null });
    expect(steps.map((s) => [s.answers, s.newClass])).toEqual([
      [0, true], // the first item is the first anchor: nothing to ask
      [1, true], // "different" from class 0's anchor
      [1, false], // class 0 is the cluster's most labeled: asked first
      [2, true], // different from both anchors
      [2, false], // cluster counts 0:2, 1:1, 2:1 -> asked 0, then 1
      [3, false], // counts 0:2, 1:2, 2:1 -> 0, 1 (discovery order), then 2
    ]);
  });
  it("follows the drawing model's p(.|x) where one drew the row", () => {
    const labels = [0, 1, 2, 2, 1];
    const proba = (row: number) => (row === 3 ? [0.1, 0.2, 0.7] : row === 4 ? [0.5, 0.1, 0.4] : null);
    const steps = verificationSteps({ rows: [0, 1, 2, 3, 4], labels, clusterOf: [0, 1, 2, 0, 0], proba });
    expect(steps.map((s) => s.answers)).toEqual([0, 1, 2, 1, 3]);
  });
});
