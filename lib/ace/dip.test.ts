import { describe, expect, it } from "vitest";
import { createRandom } from "@/lib/random";
import { dipStatistic, dipTest } from "./dip";

function normal(random: ReturnType<typeof createRandom>): number {
  return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
}

describe("dip statistic (AS 217)", () => {
  it("checked by hand on (0, 1, 10, 11): 0.225 with modal interval [10, 11]", () => {
    // On [0, 10] the greatest convex minorant of n F_n is the chord from (0, 0) to (10, 2), slope 1/5;
    // n F_n(1) = 2 lies 2 - 1/5 = 1.8 above it, and a unimodal G halfway between gives dip = 1.8 / (2 n).
    const r = dipStatistic([11, 0, 10, 1]);
    expect(r.dip).toBeCloseTo(1.8 / 8, 14);
    expect([r.low, r.high]).toEqual([2, 3]);
  });

  it("is 1 / (2n) for evenly spaced and two-point samples (R's min.is.0 = FALSE floor)", () => {
    expect(dipStatistic([0, 1]).dip).toBe(0.25);
    expect(dipStatistic([0, 1, 2, 3]).dip).toBe(0.125);
    expect(dipStatistic([5, 5, 5]).dip).toBeCloseTo(1 / 6, 15);
  });

  it("is invariant under affine maps of the sample", () => {
    const random = createRandom(3);
    const x = Array.from({ length: 200 }, () => normal(random) + (random.next() < 0.3 ? 4 : 0));
    expect(dipStatistic(x.map((v) => -3 * v + 7)).dip).toBeCloseTo(dipStatistic(x).dip, 12);
  });

  it("a small uniform sample: small dip, unimodality not rejected", () => {
    const random = createRandom(11);
    const u = Array.from({ length: 60 }, () => random.next());
    const r = dipTest(u, { simulations: 400, seed: 1 });
    expect(r.dip).toBeLessThan(0.08);
    expect(r.pValue).toBeGreaterThan(0.2);
  });

  it("two well-separated normals (n = 2000): dip near its population value 0.176, p at the Monte Carlo floor", () => {
    // N(-8, 1) / N(8, 1) in equal parts: the best unimodal fit is the line through (-8, 1/4) and (8, 3/4);
    // max_s 0.5 Phi(s) - 1/4 - s / 32 is reached where phi(s) = 1/16, s = 1.925..., giving 0.1762.
    const random = createRandom(5);
    const x = Array.from({ length: 2000 }, (_, i) => normal(random) + (i % 2 ? 8 : -8));
    const r = dipTest(x, { simulations: 99, seed: 2 });
    expect(r.dip).toBeGreaterThan(0.17);
    expect(r.dip).toBeLessThan(0.182);
    expect(r.pValue).toBe(1 / 100);
  });
});
