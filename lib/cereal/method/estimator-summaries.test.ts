import { describe, expect, it } from "vitest";
import { ESTIMATOR_SUMMARIES, estimatorSummary } from "./estimator-summaries";
import { ESTIMATORS } from "./estimators";

describe("estimator summaries", () => {
  it("describe every estimator a project or a simulation can choose, and nothing else", () => {
    expect(Object.keys(ESTIMATOR_SUMMARIES).sort()).toEqual(Object.keys(ESTIMATORS).sort());
  });

  it("say where an interval centred on the estimate comes from, and that the draws' own may miss it", () => {
    for (const [name, estimator] of Object.entries(ESTIMATORS)) {
      const { interval } = estimatorSummary(name)!;
      if (estimator.intervalCentre === "estimate") expect(interval).toMatch(/centred on the estimate/);
      else expect(interval).toMatch(/bootstrap/);
    }
    expect(estimatorSummary("nope")).toBeNull();
  });
});
