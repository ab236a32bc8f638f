import { describe, expect, it } from "vitest";
import { fitWidthPowerLaw, stopDecision, type HistoryPoint } from "./stop-rule";

/** widths w = 0.4 / sqrt(n): the textbook rate, so 0.02 is reached at n = (0.4 / 0.02)^2 = 400 */
const point = (nLabels: number, estimate: number): HistoryPoint => {
  const w = 0.4 / Math.sqrt(nLabels);
  return { nLabels, estimate, interval: [estimate - w / 2, estimate + w / 2] };
};

describe("stop rule", () => {
  it("fits the width's power law: a = 0.4, b = -1/2", () => {
    const fit = fitWidthPowerLaw([point(50, 0.5), point(100, 0.5), point(200, 0.5)])!;
    expect(fit.a).toBeCloseTo(0.4, 10);
    expect(fit.b).toBeCloseTo(-0.5, 10);
  });

  it("projects the labels still needed from the shrinking so far", () => {
    const d = stopDecision([point(50, 0.5), point(100, 0.5), point(150, 0.5)]);
    expect(d.converged).toBe(false);
    expect(d.width).toBeCloseTo(0.4 / Math.sqrt(150), 12);
    expect(d.labelsStillNeeded).toBe(400 - 150);
  });

  it("converges once the interval is under 0.02 and the estimate moved under 0.01 over the last 3 rounds", () => {
    const history = [point(500, 0.6), point(550, 0.605), point(600, 0.603), point(650, 0.608)];
    const d = stopDecision(history);
    expect(d.width).toBeLessThan(0.02);
    expect(d.moved).toBeCloseTo(0.008, 12);
    expect(d.converged).toBe(true);
    expect(d.labelsStillNeeded).toBe(0);
    // a move of 0.012 inside the window keeps it going
    expect(stopDecision([point(500, 0.6), point(550, 0.612), point(600, 0.603), point(650, 0.608)]).converged).toBe(false);
    // too few rounds to judge the movement
    expect(stopDecision(history.slice(1)).converged).toBe(false);
  });

  it("says null when the widths do not shrink", () => {
    const flat = [50, 100, 150].map((n): HistoryPoint => ({ nLabels: n, estimate: 0.5, interval: [0.4, 0.6] }));
    expect(stopDecision(flat).labelsStillNeeded).toBeNull();
  });
});
