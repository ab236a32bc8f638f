import { describe, expect, it } from "vitest";
import { roundAcquisition } from "./round";
import { RESIDUAL_MIN_ACCURACY } from "./surrogate-health";
import type { SurrogateHealth } from "./surrogate-health";

const reading = (recentUnderconfidence: number | null, recentCount = 150, weak = false, recentAccuracy = 0.9): SurrogateHealth => ({
  latestAccuracy: recentAccuracy,
  latestCount: 50,
  recentAccuracy,
  recentCount,
  recentConfidence: recentUnderconfidence === null ? null : recentAccuracy - recentUnderconfidence,
  weak,
  recentUnderconfidence,
  diffuse: false,
});

describe("roundAcquisition", () => {
  const options = { acquisition: "hardnmi" as const, design: "proportional" as const, residualWhenCalibrated: 0.05 };

  it("keeps the configured acquisition without the option", () => {
    expect(roundAcquisition({ acquisition: "hardnmi" }, reading(0))).toBe("hardnmi");
  });

  it("draws by the residual score where the earlier models read calibrated within the gap, either side", () => {
    expect(roundAcquisition(options, reading(-0.02))).toBe("residual");
    expect(roundAcquisition(options, reading(0.05))).toBe("residual");
    expect(roundAcquisition(options, reading(-0.08))).toBe("hardnmi");
    expect(roundAcquisition(options, reading(0.06))).toBe("hardnmi");
  });

  it("keeps the configured acquisition without a reading to trust: round 0, under 20 rows, or a weak surrogate", () => {
    expect(roundAcquisition(options, null)).toBe("hardnmi");
    expect(roundAcquisition(options, reading(null, 0))).toBe("hardnmi");
    expect(roundAcquisition(options, reading(0, 19))).toBe("hardnmi");
    expect(roundAcquisition(options, reading(0, 20))).toBe("residual");
    expect(roundAcquisition(options, reading(0, 150, true))).toBe("hardnmi");
  });

  it("keeps the configured acquisition where the earlier models were under RESIDUAL_MIN_ACCURACY right, calibrated or not", () => {
    expect(RESIDUAL_MIN_ACCURACY).toBe(0.9);
    expect(roundAcquisition(options, reading(0, 150, false, 0.95))).toBe("residual");
    expect(roundAcquisition(options, reading(0, 150, false, 0.9))).toBe("residual");
    expect(roundAcquisition(options, reading(0, 150, false, 0.89))).toBe("hardnmi");
    expect(roundAcquisition(options, reading(0.02, 150, false, 0.8))).toBe("hardnmi");
  });

  it("switches only where the round draws proportionally: the residual score is a sampling weight", () => {
    expect(roundAcquisition({ ...options, design: "top-score" }, reading(0))).toBe("hardnmi");
    // Hard NMI's own design is the paper's top score
    expect(roundAcquisition({ acquisition: "hardnmi", residualWhenCalibrated: 0.05 }, reading(0))).toBe("hardnmi");
    expect(roundAcquisition({ acquisition: "random", design: "uniform", residualWhenCalibrated: 0.05 }, reading(0))).toBe("random");
    expect(roundAcquisition({ acquisition: "bald", design: "proportional", residualWhenCalibrated: 0.05 }, reading(0))).toBe("residual");
  });
});
