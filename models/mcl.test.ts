import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { contingency, metricsFromTable } from "@/lib/metrics";
import { pseudoLabel } from "@/lib/cereal/method/estimators";
import type { LabeledPairs } from "@/lib/cereal/pairwise/pair-surrogate";
import type { EmbeddingMatrix } from "@/lib/cereal/method/surrogate";
import { ensureBackend } from "./backend";
import { mclLossAndGrad } from "./mcl";
import { MclSurrogate, type PairwiseSurrogateConfig } from "./mcl-surrogate";
import { Rng } from "./trainer-random";

beforeAll(async () => {
  process.env.CEREAL_TF_BACKEND = "wasm";
  await ensureBackend();
});

function lossAndGrad(logits: number[][], same: number[]): { loss: number; grad: number[][] } {
  return tf.tidy(() => {
    const r = mclLossAndGrad(tf.tensor2d(logits), tf.tensor1d(same));
    return { loss: r.loss.dataSync()[0], grad: r.dLogits.arraySync() };
  });
}

describe("the MCL loss", () => {
  // pair 1 (same): p_a = [1/4, 3/4], p_b = [1/2, 1/2], P = 1/2, loss -log(1/2)
  // pair 2 (different): p_a = p_b = [3/4, 1/4], P = 5/8, loss -log(3/8)
  const logits = [
    [0, Math.log(3)],
    [Math.log(3), 0],
    [0, 0],
    [Math.log(3), 0],
  ];

  it("matches a hand computation of the loss and its gradient", () => {
    const { loss, grad } = lossAndGrad(logits, [1, 0]);
    expect(loss).toBeCloseTo((-Math.log(0.5) - Math.log(0.375)) / 2, 5);
    // pair 1: dL/dP = -1/(1/2)/2 = -1; a's gradient vanishes (p_b is flat), b's is p_b * (-p_a + 1/2)
    // pair 2: dL/dP = (1/(3/8))/2 = 4/3; dz = p * (4/3 p_other - 5/6) = [1/8, -1/8] for both items
    const expected = [
      [0, 0],
      [0.125, -0.125],
      [0.125, -0.125],
      [0.125, -0.125],
    ];
    grad.forEach((row, i) => row.forEach((v, k) => expect(v).toBeCloseTo(expected[i][k], 5)));
  });

  it("has the gradient of central finite differences on random logits", () => {
    const rng = new Rng(3);
    const z = Array.from({ length: 6 }, () => Array.from({ length: 4 }, () => 2 * rng.normal()));
    const same = [1, 0, 1];
    const { grad } = lossAndGrad(z, same);
    const h = 1e-2;
    for (let i = 0; i < z.length; i++) {
      for (let k = 0; k < 4; k++) {
        const plus = z.map((row) => row.slice());
        const minus = z.map((row) => row.slice());
        plus[i][k] += h;
        minus[i][k] -= h;
        const numeric = (lossAndGrad(plus, same).loss - lossAndGrad(minus, same).loss) / (2 * h);
        expect(Math.abs(grad[i][k] - numeric)).toBeLessThan(2e-3);
      }
    }
  });

  it("stays finite when P reaches 0 or 1 (the eps)", () => {
    const { loss, grad } = lossAndGrad(
      [
        [40, -40],
        [40, -40],
        [-40, 40],
        [40, -40],
      ],
      [1, 0],
    );
    // a "same" pair with P = 0 and a "different" one with P = 1: each costs -log(eps) = 16.1
    expect(loss).toBeCloseTo(-Math.log(1e-7), 1);
    expect(grad.flat().every(Number.isFinite)).toBe(true);
  });
});

/** three Gaussian blobs in d dimensions, and answered random pairs between their points */
function blobPairs(n: number, d: number, nPairs: number, seed: number): { x: EmbeddingMatrix; y: Int32Array; pairs: LabeledPairs } {
  const rng = new Rng(seed);
  const data = new Float32Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = i % 3;
    for (let j = 0; j < d; j++) data[i * d + j] = rng.normal() + (j % 3 === y[i] ? 5 : 0);
  }
  const a = new Int32Array(nPairs);
  const b = new Int32Array(nPairs);
  const same = new Uint8Array(nPairs);
  for (let p = 0; p < nPairs; p++) {
    a[p] = rng.int(n);
    b[p] = (a[p] + 1 + rng.int(n - 1)) % n;
    same[p] = y[a[p]] === y[b[p]] ? 1 : 0;
  }
  return { x: { data, n, d }, y, pairs: { a, b, same } };
}

describe("MclSurrogate", () => {
  const { x, y, pairs } = blobPairs(300, 6, 300, 5);
  const all = Int32Array.from({ length: 300 }, (_, i) => i);

  it("recovers three blobs from pairwise answers alone (argmax clusters, NMI > 0.9), with the step cap", async () => {
    const surrogate = await MclSurrogate.create(x, 6, { mcl: { maxSteps: 150 } });
    const report = await surrogate.fit(pairs, { seed: 1 });
    expect(report.steps).toBe(150); // 50 epochs x 10 batches = 500, capped
    expect(report.finalLoss).toBeLessThan(0.4);
    const clusters = pseudoLabel(await surrogate.predictProba(all), 6);
    expect(metricsFromTable(contingency(y, clusters)).nmi).toBeGreaterThan(0.9);
    surrogate.dispose();
  });

  it("trains the linear model too, and repeats exactly with the same seed", async () => {
    const surrogate = await MclSurrogate.create(x, 6, { model: "linear", mcl: { maxSteps: 150 } });
    await surrogate.fit(pairs, { seed: 2 });
    const first = await surrogate.predictProba(all);
    await surrogate.fit(pairs, { seed: 2 });
    expect(await surrogate.predictProba(all)).toEqual(first);
    expect(metricsFromTable(contingency(y, pseudoLabel(first, 6))).nmi).toBeGreaterThan(0.9);
    surrogate.dispose();
  });

  it("trains with the consistency term and either step size: repeatable, a different fit, the blobs recovered", async () => {
    const few = { a: pairs.a.subarray(0, 60), b: pairs.b.subarray(0, 60), same: pairs.same.subarray(0, 60) };
    const fitProba = async (mcl: PairwiseSurrogateConfig["mcl"]) => {
      const surrogate = await MclSurrogate.create(x, 6, { mcl: { maxSteps: 150, ...mcl } });
      await surrogate.fit(few, { seed: 3 });
      const proba = await surrogate.predictProba(all);
      surrogate.dispose();
      return proba;
    };
    const plain = await fitProba({});
    const consistent = await fitProba({ consistency: { unlabeledBatch: 64 } });
    expect(await fitProba({ consistency: { unlabeledBatch: 64 } })).toEqual(consistent);
    expect(consistent).not.toEqual(plain);
    // the default step size is the cosine decay: the same fit as naming it, another than the constant one
    expect(await fitProba({ schedule: "cosine" })).toEqual(plain);
    const constant = await fitProba({ schedule: "constant" });
    expect(constant).not.toEqual(plain);
    expect(metricsFromTable(contingency(y, pseudoLabel(constant, 6))).nmi).toBeGreaterThan(0.9);
    expect(metricsFromTable(contingency(y, pseudoLabel(consistent, 6))).nmi).toBeGreaterThan(0.9);
  });
});

