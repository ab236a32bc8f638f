import { describe, expect, it } from "vitest";
import { expectedCalibrationError, fitTemperature, temperatureScale } from "./calibration";
import { Random } from "../../random/named-streams";

describe("temperature scaling", () => {
  it("raises p to 1/T and renormalises", () => {
    // T = 0.5: p^2 / sum p^2 = [.25, .0625, .0625] / .375
    const p = temperatureScale(Float32Array.from([0.5, 0.25, 0.25]), 3, 0.5);
    expect(p[0]).toBeCloseTo(2 / 3, 6);
    expect(p[1]).toBeCloseTo(1 / 6, 6);
    // T = 2 flattens: sqrt(p) normalised
    const q = temperatureScale(Float32Array.from([0.81, 0.09, 0.1]), 3, 2);
    const s = 0.9 + 0.3 + Math.sqrt(0.1);
    expect(q[0]).toBeCloseTo(0.9 / s, 6);
  });

  it("recovers the temperature of a model overconfident by T = 2", () => {
    // true distribution softmax(z); the model reports softmax(2 z): fitted T should be about 2
    const random = new Random(7);
    const n = 3000;
    const C = 4;
    const reported = new Float32Array(n * C);
    const labels = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const z = Array.from({ length: C }, () => random.normal());
      const truth = z.map(Math.exp);
      const model = z.map((v) => Math.exp(2 * v));
      const ts = truth.reduce((a, b) => a + b, 0);
      const ms = model.reduce((a, b) => a + b, 0);
      labels[i] = random.categorical(truth.map((v) => v / ts), 0, C);
      model.forEach((v, y) => (reported[i * C + y] = v / ms));
    }
    const fit = fitTemperature(reported, labels, C);
    expect(fit.temperature).toBeGreaterThan(1.8);
    expect(fit.temperature).toBeLessThan(2.2);
    expect(fit.nllAfter).toBeLessThan(fit.nllBefore);
    expect(expectedCalibrationError(temperatureScale(reported, C, fit.temperature), labels, C)).toBeLessThan(
      expectedCalibrationError(reported, labels, C) / 2,
    );
  });

  it("keeps T = 1 with too few pairs", () => {
    expect(fitTemperature(Float32Array.from([0.9, 0.1]), Int32Array.from([1]), 2).temperature).toBe(1);
  });

  it("ECE on a hand case", () => {
    // confidences .95 (right), .95 (wrong) -> bin 9: |.5 - .95| = .45; .65 (right) -> bin 6: |1 - .65| = .35
    // ECE = 2/3 * .45 + 1/3 * .35
    const p = Float32Array.from([0.95, 0.05, 0.95, 0.05, 0.35, 0.65]);
    expect(expectedCalibrationError(p, Int32Array.from([0, 1, 1]), 2)).toBeCloseTo((2 / 3) * 0.45 + (1 / 3) * 0.35, 6);
  });
});
