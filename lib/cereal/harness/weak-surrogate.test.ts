import { describe, expect, it } from "vitest";
import { estimatorByName } from "../method/estimators";
import { createKnnSurrogateFactory } from "../fakes/knn-surrogate";
import { overlappingClasses } from "./overlap-data";
import type { CerealProblem } from "../method/problem";
import { RECOMMENDED } from "../method/recommended";
import { simulate } from "./simulate";

/** 20 overlapping classes; the test clustering puts each item with the nearest of 10 class means */
function weakWorld(seed: number) {
  const n = 1500;
  const d = 16;
  const { embeddings, labels, means } = overlappingClasses({ n, d, classes: 20, spread: 0.35, seed });
  const assignments = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = Infinity;
    for (let c = 0; c < 10; c++) {
      let dist = 0;
      for (let j = 0; j < d; j++) dist += (embeddings[i * d + j] - means[c * d + j]) ** 2;
      if (dist < best) [best, assignments[i]] = [dist, c];
    }
  }
  const problem: CerealProblem = { embeddings: { data: embeddings, n, d }, numClasses: 20, clusterings: [{ name: "nearest10", k: 10, assignments }] };
  return { problem, labels };
}

describe("the recommended configuration with a weak surrogate", () => {
  it("flags the surrogate weak and estimates NMI better than the labels alone (Random), with intervals that hold the truth", async () => {
    const { problem, labels } = weakWorld(0);
    const result = await simulate(problem, labels, createKnnSurrogateFactory(), {
      acquisition: RECOMMENDED.acquisition,
      design: RECOMMENDED.design,
      fixmatch: RECOMMENDED.fixmatch,
      trainerGuard: RECOMMENDED.trainerGuard,
      estimator: estimatorByName(RECOMMENDED.estimator),
      compare: [estimatorByName("labels"), estimatorByName("ppi")],
      seed: 0,
      budget: 300,
      intervals: { draws: 40 },
      timings: false,
    });
    const weakRounds = result.rounds.filter((r) => r.surrogateWeak).length;
    expect(weakRounds).toBeGreaterThanOrEqual(4);
    const aec = (name: string) => result.summary.byEstimator![name].aec.nmi;
    // the plug-in metrics on a few hundred labels over 200 cells sit far above the truth
    expect(aec("guarded")).toBeLessThan(aec("labels") / 2);
    expect(aec("guarded")).toBeLessThan(aec("ppi"));
    const late = result.rounds.filter((r) => r.nLabels > 200);
    for (const r of late) {
      const [lo, hi] = r.byEstimator!.guarded.interval!.nearest10.nmi;
      expect(r.true.nearest10.nmi).toBeGreaterThanOrEqual(lo);
      expect(r.true.nearest10.nmi).toBeLessThanOrEqual(hi);
    }
  });
});
