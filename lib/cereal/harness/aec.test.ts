import { describe, expect, it } from "vitest";
import { aec, aecPerAnnotatorHour, trapezoid } from "./aec";

describe("AEC", () => {
  it("is the trapezoid area under the error curve", () => {
    expect(trapezoid([0, 1, 3], [2, 4, 0])).toBe(3 + 4);
  });

  it("in rounds and per 1000 labels for errors 0.1, 0.05, 0.02 at 50, 100, 150 labels", () => {
    const points = [
      { nLabels: 50, absErr: 0.1 },
      { nLabels: 100, absErr: 0.05 },
      { nLabels: 150, absErr: 0.02 },
    ];
    // rounds: (0.1 + 0.05) / 2 + (0.05 + 0.02) / 2 = 0.11; per 1000 labels: 0.11 * 50 / 1000
    expect(aec(points, 50)).toBeCloseTo(0.11, 12);
    expect(aec(points, 1000)).toBeCloseTo(0.0055, 12);
    expect(aec(points.slice(0, 1), 50)).toBe(0);
  });

  it("per annotator-hour: the same curve with x in hours of answering at a given pace", () => {
    const curve = [
      { nLabels: 100, absErr: 0.2 },
      { nLabels: 1000, absErr: 0.1 },
      { nLabels: 1900, absErr: 0.0 },
    ];
    // 9 s an answer: 400 answers an hour, so x = (n - 100) / 400
    expect(aecPerAnnotatorHour(aec(curve, 1000), 9)).toBeCloseTo(aec(curve, 400), 12);
    // x = 0, 2.25, 4.5 hours: 2.25 x (0.2 + 0.1) / 2 + 2.25 x (0.1 + 0) / 2
    expect(aecPerAnnotatorHour(aec(curve, 1000), 9)).toBeCloseTo(0.45, 12);
    expect(() => aecPerAnnotatorHour(0.1, 0)).toThrow(/seconds per answer must be positive, got 0/);
  });
});
