import { describe, expect, it } from "vitest";
import { stopDecision, widthLaw, type HistoryPoint } from "./stop-rule";

/** widths w = 0.4 / sqrt(n): the textbook rate, so 0.02 is reached at n = (0.4 / 0.02)^2 = 400 */
const point = (nLabels: number, estimate: number): HistoryPoint => {
  const w = 0.4 / Math.sqrt(nLabels);
  return { nLabels, estimate, interval: [estimate - w / 2, estimate + w / 2] };
};

describe("stop rule", () => {
  it("fits the width law: a = 0.4, g = 1/2", () => {
    const law = widthLaw([point(50, 0.5), point(100, 0.5), point(200, 0.5)])!;
    expect(law.a).toBeCloseTo(0.4, 10);
    expect(law.g).toBeCloseTo(0.5, 10);
  });

  it("never asks for more labels than the pool has items left: labeling them all makes the metric exact", () => {
    // 0.4 / sqrt(n) reaches 0.02 at 400 labels
    const history = [point(50, 0.5), point(100, 0.5), point(150, 0.5)];
    expect(stopDecision(history, { poolSize: 1000 }).labelsStillNeeded).toBe(400 - 150);
    expect(stopDecision(history, { poolSize: 300 }).labelsStillNeeded).toBe(300 - 150);
  });

  it("holds the exponent to [1/2, 1] and draws the curve through the latest width", () => {
    const at = (widths: [number, number][]) => widths.map(([n, w]): HistoryPoint => ({ nLabels: n, estimate: 0.5, interval: [0.5 - w / 2, 0.5 + w / 2] }));
    // falling as n^-2: g = 1, through (200, 0.05): 0.02 at 200 * 0.05 / 0.02 = 500
    const steep = at([[100, 0.2], [150, 0.2 * (100 / 150) ** 2], [200, 0.05]]);
    expect(widthLaw(steep)!.g).toBe(1);
    expect(stopDecision(steep).labelsStillNeeded).toBe(500 - 200);
    // falling as n^-0.1 (a widening floor, say): g = 1/2, through (200, 0.04): 0.02 at 200 * (0.04 / 0.02)^2 = 800
    const slow = at([[100, 0.04 * 2 ** 0.1], [200, 0.04]]);
    expect(widthLaw(slow)!.g).toBe(0.5);
    expect(stopDecision(slow).labelsStillNeeded).toBe(800 - 200);
    // rising: no projection
    expect(widthLaw(at([[100, 0.03], [200, 0.04]]))).toBeNull();
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
    // with round 0 the exponent would be steeper and the projection ask for fewer
    const steep = widthLaw(history)!;
    expect(steep.g).toBeGreaterThan(0.5);
    expect(200 * Math.pow(0.4 / Math.sqrt(200) / 0.02, 1 / steep.g)).toBeLessThan(400);
    // with two later rounds round 0 still counts (a two-point fit swings widely)
    const early = [seedRound, point(100, 0.5), point(150, 0.5)];
    const withSeed = widthLaw(early)!;
    expect(withSeed.g).toBeGreaterThan(0.5);
    expect(stopDecision(early).labelsStillNeeded).toBe(Math.ceil(Math.pow(0.02 / withSeed.a, -1 / withSeed.g) - 150 - 1e-6));
  });

  it("never says 0 labels needed while the interval is still too wide, however far the widths fell before", () => {
    const widths: [number, number][] = [[100, 0.3], [150, 0.2], [200, 0.01], [250, 0.021]];
    const history = widths.map(([n, w]): HistoryPoint => ({ nLabels: n, estimate: 0.5, interval: [0.5 - w / 2, 0.5 + w / 2] }));
    const d = stopDecision(history);
    expect(d.width).toBeGreaterThan(0.02);
    // g held to 1 (the fitted fall is steeper), through (250, 0.021): 0.02 at 262.5
    expect(widthLaw(history.slice(1))!.g).toBe(1);
    expect(d.labelsStillNeeded).toBe(13);
  });
});
