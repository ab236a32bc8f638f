import { describe, expect, it } from "vitest";
import { digitsProblem } from "../fakes/digits-problem";
import { createKnnSurrogateFactory } from "../fakes/knn-surrogate";
import type { EstimatorInput } from "../method/estimators";
import { estimateMetrics, estimatorByName } from "../method/estimators";
import { estimatorInputFromJson, estimatorInputToJson, probaBytes, probaFromBytes } from "./estimator-inputs";
import { simulate } from "./simulate";

describe("estimator inputs kept for replays", () => {
  it("a round's input, through JSON and pi's raw values, gives every estimator the estimates the run recorded", async () => {
    const { problem, labels } = await digitsProblem();
    const inputs = new Map<number, EstimatorInput>();
    const guarded = estimatorByName("guarded");
    const result = await simulate(problem, labels, createKnnSurrogateFactory(), {
      acquisition: "hardnmi",
      design: "proportional",
      estimator: guarded,
      compare: [estimatorByName("ppi")],
      fixmatch: false,
      seed: 3,
      seedSize: 40,
      batch: 40,
      budget: 160,
      intervals: false,
      onEstimatorInput: (round, input) => inputs.set(round, input),
    });
    expect([...inputs.keys()]).toEqual(result.rounds.map((r) => r.round));
    for (const record of result.rounds) {
      const { json, proba } = estimatorInputToJson(inputs.get(record.round)!);
      // what a file keeps: the JSON text and pi's bytes
      const reloaded = estimatorInputFromJson(JSON.parse(JSON.stringify(json)), proba && probaFromBytes(probaBytes(proba)));
      expect(reloaded.labeled.rows.length).toBe(record.nLabels);
      for (const name of ["guarded", "ppi"]) expect(estimateMetrics(reloaded, problem.clusterings, estimatorByName(name))).toEqual(record.byEstimator![name].estimate);
    }
    // the later rounds carry an out-of-sample record, which the guard and ppi read
    expect(inputs.get(3)!.outOfSample!.predictions.size).toBeGreaterThan(0);
  });

  it("says what does not fit: pi of another size, pi missing, a bootstrap draw", () => {
    const input: EstimatorInput = { n: 4, numClasses: 2, labeled: { rows: Int32Array.of(0), labels: Int32Array.of(1) }, unlabeled: Int32Array.of(1, 2, 3), proba: new Float32Array(6), draws: [] };
    const { json } = estimatorInputToJson(input);
    expect(() => estimatorInputFromJson(json, new Float32Array(4))).toThrow(/pi holds 4 values, not unlabeled x classes = 6/);
    expect(() => estimatorInputFromJson(json, null)).toThrow(/has pi, but none came with it/);
    expect(() => estimatorInputToJson({ ...input, multiplicity: Int32Array.of(2) })).toThrow(/bootstrap draw/);
    // stored bytes read back from any offset of a larger buffer (as a small file's are), and not a whole number of values
    const shared = new Uint8Array(3 + 8);
    shared.set(probaBytes(Float32Array.of(0.25, 0.75)), 3);
    expect(probaFromBytes(shared.subarray(3))).toEqual(Float32Array.of(0.25, 0.75));
    expect(() => probaFromBytes(new Uint8Array(6))).toThrow(/6 bytes are not whole Float32 values/);
  });
});
