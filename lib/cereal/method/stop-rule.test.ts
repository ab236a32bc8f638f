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

  it("leaves round 0's wide interval out of the fit once three later rounds exist", () => {
    const seedRound: HistoryPoint = { nLabels: 50, estimate: 0.5, interval: [0.1, 0.9] };
    const history = [seedRound, point(100, 0.5), point(150, 0.5), point(200, 0.5)];
    expect(stopDecision(history).labelsStillNeeded).toBe(400 - 200);
    // with round 0 the curve would be far steeper and ask for fewer
    const steep = fitWidthPowerLaw(history)!;
    expect(Math.pow(0.02 / steep.a, 1 / steep.b)).toBeLessThan(300);
    // with two later rounds round 0 still counts (a two-point fit swings widely)
    const early = [seedRound, point(100, 0.5), point(150, 0.5)];
    const withSeed = fitWidthPowerLaw(early)!;
    expect(stopDecision(early).labelsStillNeeded).toBe(Math.ceil(Math.pow(0.02 / withSeed.a, 1 / withSeed.b) - 150 - 1e-6));
  });

  it("never says 0 labels needed while the interval is still too wide", () => {
    const widths: [number, number][] = [[100, 0.3], [150, 0.2], [200, 0.01], [250, 0.021]];
    const history = widths.map(([n, w]): HistoryPoint => ({ nLabels: n, estimate: 0.5, interval: [0.5 - w / 2, 0.5 + w / 2] }));
    // the fitted curve has crossed 0.02 before the current 250 labels
    const fit = fitWidthPowerLaw(history.slice(1))!;
    expect(Math.pow(0.02 / fit.a, 1 / fit.b)).toBeLessThan(250);
    const d = stopDecision(history);
    expect(d.width).toBeGreaterThan(0.02);
    expect(d.labelsStillNeeded).toBe(1);
  });
});
