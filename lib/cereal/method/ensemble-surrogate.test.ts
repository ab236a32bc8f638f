import { describe, expect, it } from "vitest";
import { deriveSeed } from "../../random/named-streams";
import { ensembleSurrogateFactory } from "./ensemble-surrogate";
import type { FitOptions, FitProgress, Surrogate, SurrogateFactory } from "./surrogate";

const EMBEDDINGS = { data: new Float32Array(4 * 2), n: 4, d: 2 };
const LABELED = { rows: Int32Array.from([0]), labels: Int32Array.from([1]) };
const UNLABELED = Int32Array.from([1, 2, 3]);

/** a member whose probabilities and weights are its last fit's seed, and that records every fit's options */
function recordingFactory(fits: FitOptions[]): SurrogateFactory {
  return async (_embeddings, numClasses) => {
    let seed = 0;
    let theta = Float32Array.from([0, 0, 0]);
    const member: Surrogate = {
      async fit(_labeled, _unlabeled, options, onProgress) {
        fits.push(options);
        seed = options.seed;
        theta = options.initialWeights ? Float32Array.from(options.initialWeights, (w) => w + 1) : Float32Array.from([seed, seed, seed]);
        onProgress?.({ step: 10, total: 10 });
        return { backend: "fake", trainSeconds: 1, steps: 10, maskRate: seed % 2 === 0 ? 0.5 : 0.25, finalLoss: 2 };
      },
      async predictProba(rows) {
        // class 0 gets (seed mod 10) / 10, class 1 the rest
        const p = (seed % 10) / 10;
        return Float32Array.from({ length: rows.length * numClasses }, (_, i) => (i % numClasses === 0 ? p : 1 - p));
      },
      async predictProbaMc(rows, passes, mcSeed) {
        return Float32Array.from({ length: passes * rows.length * numClasses }, (_, i) => (mcSeed % 7) + Math.floor(i / (rows.length * numClasses)));
      },
      weights: () => theta,
      dispose() {},
    };
    return member;
  };
}

describe("ensembleSurrogateFactory", () => {
  it("is its member with one member: same seed, same probabilities", async () => {
    const fits: FitOptions[] = [];
    const one = await ensembleSurrogateFactory(recordingFactory(fits), 1)(EMBEDDINGS, 2);
    const alone = await recordingFactory([])(EMBEDDINGS, 2);
    const options = { seed: 17, fixmatch: true };
    await one.fit(LABELED, UNLABELED, options);
    await alone.fit(LABELED, UNLABELED, options);
    expect(fits.map((f) => f.seed)).toEqual([17]);
    expect(await one.predictProba(UNLABELED)).toEqual(await alone.predictProba(UNLABELED));
  });

  it("fits each member from its own seed and averages their probabilities", async () => {
    const fits: FitOptions[] = [];
    const ensemble = await ensembleSurrogateFactory(recordingFactory(fits), 2)(EMBEDDINGS, 2);
    const report = await ensemble.fit(LABELED, UNLABELED, { seed: 12, fixmatch: true });
    const second = deriveSeed(12, "ensemble", 1);
    expect(fits.map((f) => f.seed)).toEqual([12, second]);
    const p = ((12 % 10) / 10 + (second % 10) / 10) / 2;
    const proba = await ensemble.predictProba(UNLABELED);
    expect(proba.length).toBe(6);
    for (let i = 0; i < 3; i++) {
      expect(proba[2 * i]).toBeCloseTo(p, 6);
      expect(proba[2 * i + 1]).toBeCloseTo(1 - p, 6);
    }
    expect(report.steps).toBe(20);
    expect(report.trainSeconds).toBe(2);
    expect(report.finalLoss).toBe(2);
    expect(report.maskRate).toBeCloseTo(((12 % 2 === 0 ? 0.5 : 0.25) + (second % 2 === 0 ? 0.5 : 0.25)) / 2, 12);
  });

  it("averages MC passes pass by pass, each member with its own stream", async () => {
    const ensemble = await ensembleSurrogateFactory(recordingFactory([]), 2)(EMBEDDINGS, 2);
    await ensemble.fit(LABELED, UNLABELED, { seed: 3, fixmatch: true });
    const mc = await ensemble.predictProbaMc(Int32Array.from([1]), 2, 40);
    const base = (40 % 7 + (deriveSeed(40, "ensemble", 1) % 7)) / 2;
    expect(Array.from(mc)).toEqual([base, base, base + 1, base + 1]);
  });

  it("carries every member's weights through a warm start, each member from its own slice", async () => {
    const fits: FitOptions[] = [];
    const ensemble = await ensembleSurrogateFactory(recordingFactory(fits), 2)(EMBEDDINGS, 2);
    await ensemble.fit(LABELED, UNLABELED, { seed: 5, fixmatch: true });
    // the fake's weights are its seed as float32
    const second = Math.fround(deriveSeed(5, "ensemble", 1));
    const carried = ensemble.weights!();
    expect(Array.from(carried)).toEqual([5, 5, 5, second, second, second]);
    await ensemble.fit(LABELED, UNLABELED, { seed: 6, fixmatch: true, initialWeights: carried });
    expect(Array.from(fits[2].initialWeights!)).toEqual([5, 5, 5]);
    expect(Array.from(fits[3].initialWeights!)).toEqual([second, second, second]);
    expect(Array.from(ensemble.weights!())).toEqual([6, 6, 6, Math.fround(second + 1), Math.fround(second + 1), Math.fround(second + 1)]);
  });

  it("refuses weights of another length with an error that says what to do", async () => {
    const ensemble = await ensembleSurrogateFactory(recordingFactory([]), 2)(EMBEDDINGS, 2);
    await expect(ensemble.fit(LABELED, UNLABELED, { seed: 1, fixmatch: true, initialWeights: new Float32Array(3) })).rejects.toThrow(
      /got 3 weights, the 2 members hold 6; train this round from scratch/,
    );
  });

  it("reports progress over the whole ensemble", async () => {
    const seen: FitProgress[] = [];
    const ensemble = await ensembleSurrogateFactory(recordingFactory([]), 3)(EMBEDDINGS, 2);
    await ensemble.fit(LABELED, UNLABELED, { seed: 1, fixmatch: true }, (p) => seen.push(p));
    expect(seen).toEqual([
      { step: 10, total: 30 },
      { step: 20, total: 30 },
      { step: 30, total: 30 },
    ]);
  });

  it("refuses fewer than one member", () => {
    expect(() => ensembleSurrogateFactory(recordingFactory([]), 0)).toThrow(/at least 1/);
  });
});
