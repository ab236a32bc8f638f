import { describe, expect, it } from "vitest";
import { deriveSeed } from "../../random/named-streams";
import { ensembleSurrogateFactory, foldOf } from "./ensemble-surrogate";
import type { FitOptions, FitProgress, Surrogate, SurrogateFactory } from "./surrogate";

const EMBEDDINGS = { data: new Float32Array(4 * 2), n: 4, d: 2 };
const LABELED = { rows: Int32Array.from([0]), labels: Int32Array.from([1]) };
const UNLABELED = Int32Array.from([1, 2, 3]);

/** a member whose probabilities and weights are its last fit's seed, and that records every fit's options (and rows, given `rows`) */
function recordingFactory(fits: FitOptions[], rows: { labeled: number[]; unlabeled: number[] }[] = []): SurrogateFactory {
  return async (_embeddings, numClasses) => {
    let seed = 0;
    let theta = Float32Array.from([0, 0, 0]);
    const member: Surrogate = {
      async fit(labeled, unlabeled, options, onProgress) {
        fits.push(options);
        rows.push({ labeled: Array.from(labeled.rows), unlabeled: Array.from(unlabeled) });
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

  it("refuses fewer than one member, and folds with one", () => {
    expect(() => ensembleSurrogateFactory(recordingFactory([]), 0)).toThrow(/at least 1/);
    expect(() => ensembleSurrogateFactory(recordingFactory([]), 1, { folds: true })).toThrow(/at least 2 members/);
  });

  it("with folds, trains member k without fold k's labels, which join its unlabeled rows", async () => {
    const n = 40;
    const embeddings = { data: new Float32Array(n * 2), n, d: 2 };
    const labeledRows = Int32Array.from({ length: 30 }, (_, i) => i);
    const labeled = { rows: labeledRows, labels: Int32Array.from(labeledRows, (r) => r % 2) };
    const unlabeled = Int32Array.from({ length: 10 }, (_, i) => 30 + i);
    const inclusion = Float64Array.from(labeledRows, (r) => 0.01 * (r + 1));
    const fits: FitOptions[] = [];
    const seen: { labeled: number[]; unlabeled: number[] }[] = [];
    const ensemble = await ensembleSurrogateFactory(recordingFactory(fits, seen), 2, { folds: true })(embeddings, 2);
    await ensemble.fit(labeled, unlabeled, { seed: 8, fixmatch: true, inclusion });
    const fold = Array.from(labeledRows, (r) => foldOf(r, 2));
    expect(new Set(fold)).toEqual(new Set([0, 1]));
    for (const k of [0, 1]) {
      const out = Array.from(labeledRows).filter((r) => foldOf(r, 2) === k);
      expect(seen[k].labeled).toEqual(Array.from(labeledRows).filter((r) => foldOf(r, 2) !== k));
      expect(seen[k].unlabeled).toEqual([...Array.from(unlabeled), ...out]);
      expect(Array.from(fits[k].inclusion!)).toEqual(seen[k].labeled.map((r) => 0.01 * (r + 1)));
    }
  });
});
