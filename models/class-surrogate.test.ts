import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import type { EmbeddingMatrix, LabeledRows } from "@/lib/cereal/method/surrogate";
import { ensureBackend } from "./backend";
import { MlpSurrogate } from "./class-surrogate";
import { Rng } from "./trainer-random";

beforeAll(async () => {
  // tests never load the native packages (tfjs-node-gpu may be an uninstalled shell here)
  process.env.CEREAL_TF_BACKEND = "wasm";
  await ensureBackend();
});

/** two Gaussian blobs in d dimensions, centres 6 apart on every axis' diagonal */
function blobs(n: number, d: number, seed: number): { x: EmbeddingMatrix; y: Int32Array } {
  const rng = new Rng(seed);
  const data = new Float32Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = i % 2;
    for (let j = 0; j < d; j++) data[i * d + j] = rng.normal() + (y[i] === 1 ? 3 : -3) / Math.sqrt(d) * 2 + 10;
  }
  return { x: { data, n, d }, y };
}

function split(y: Int32Array, nLabeled: number): { labeled: LabeledRows; unlabeled: Int32Array } {
  const rows = Int32Array.from({ length: nLabeled }, (_, i) => i);
  return {
    labeled: { rows, labels: Int32Array.from(rows, (r) => y[r]) },
    unlabeled: Int32Array.from({ length: y.length - nLabeled }, (_, i) => i + nLabeled),
  };
}

function accuracy(proba: Float32Array, rows: Int32Array, y: Int32Array): number {
  let correct = 0;
  for (let i = 0; i < rows.length; i++) correct += (proba[2 * i + 1] > proba[2 * i] ? 1 : 0) === y[rows[i]] ? 1 : 0;
  return correct / rows.length;
}

describe("MlpSurrogate with FixMatch", () => {
  const { x, y } = blobs(600, 8, 11);
  const { labeled, unlabeled } = split(y, 8);

  it("reaches > 95% accuracy on two separated blobs, reports progress and the backend", async () => {
    const surrogate = await MlpSurrogate.create(x, 2);
    const progress: number[] = [];
    const report = await surrogate.fit(labeled, unlabeled, { seed: 1, fixmatch: true, steps: 200 }, (p) => {
      if (p.step % 50 === 0) progress.push(p.step / p.total);
    });
    expect(report.backend).toBe("wasm");
    expect(report.steps).toBe(200);
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    expect(report.finalLoss).not.toBeNull();
    expect(accuracy(await surrogate.predictProba(unlabeled), unlabeled, y)).toBeGreaterThan(0.95);
    surrogate.dispose();
  });

  it("masks no pseudo-label with tau > 1 and all with tau = 0", async () => {
    const surrogate = await MlpSurrogate.create(x, 2);
    const none = await surrogate.fit(labeled, unlabeled, { seed: 2, fixmatch: true, steps: 20, threshold: 1.01 });
    expect(none.maskRate).toBe(0);
    // no pseudo-label passes the threshold, so the unlabeled term of the loss vanishes
    expect(none.unlabeledLoss).toBe(0);
    expect(none.finalLoss).toBeCloseTo(none.labeledLoss ?? NaN, 10);
    const all = await surrogate.fit(labeled, unlabeled, { seed: 2, fixmatch: true, steps: 20, threshold: 0 });
    expect(all.maskRate).toBe(1);
    expect(all.unlabeledLoss).toBeGreaterThan(0);
    surrogate.dispose();
  });

  it("repeats a seeded fit exactly, predictions and MC dropout included, and leaks no tensors", async () => {
    const tensorsBefore = tf.memory().numTensors;
    const run = async (seed: number) => {
      const surrogate = await MlpSurrogate.create(x, 2);
      const report = await surrogate.fit(labeled, unlabeled, { seed, fixmatch: true, steps: 30 });
      const rows = unlabeled.subarray(0, 50);
      const result = {
        loss: report.finalLoss,
        maskRate: report.maskRate,
        proba: await surrogate.predictProba(rows),
        mc: await surrogate.predictProbaMc(rows, 3, 5),
      };
      surrogate.dispose();
      return result;
    };
    const a = await run(4);
    const b = await run(4);
    expect(b.loss).toBe(a.loss);
    expect(b.maskRate).toBe(a.maskRate);
    expect(Array.from(b.proba)).toEqual(Array.from(a.proba));
    expect(Array.from(b.mc)).toEqual(Array.from(a.mc));
    const c = await run(5);
    expect(Array.from(c.proba)).not.toEqual(Array.from(a.proba));
    expect(tf.memory().numTensors).toBe(tensorsBefore);
  });

  it("warm-starts from given weights: the same weights and seed train to the same weights, other than a cold fit's", async () => {
    const first = await MlpSurrogate.create(x, 2);
    await first.fit(labeled, unlabeled, { seed: 1, fixmatch: true, steps: 20 });
    const previous = first.weights();
    first.dispose();
    const warm = async (initialWeights: Float32Array | undefined) => {
      // a fresh surrogate, as a round resumed in another process would create
      const surrogate = await MlpSurrogate.create(x, 2);
      await surrogate.fit(labeled, unlabeled, { seed: 2, fixmatch: true, steps: 10, initialWeights });
      const result = { weights: surrogate.weights(), proba: await surrogate.predictProba(unlabeled.subarray(0, 20)) };
      surrogate.dispose();
      return result;
    };
    const a = await warm(previous);
    const b = await warm(Float32Array.from(previous));
    expect(Array.from(b.weights)).toEqual(Array.from(a.weights));
    expect(Array.from(b.proba)).toEqual(Array.from(a.proba));
    expect(Array.from(a.weights)).not.toEqual(Array.from(previous));
    const cold = await warm(undefined);
    expect(Array.from(cold.weights)).not.toEqual(Array.from(a.weights));
  });
});

describe("MlpSurrogate supervised", () => {
  it("learns the blobs from labeled rows alone and returns probabilities that sum to 1", async () => {
    const { x, y } = blobs(300, 4, 3);
    const { labeled, unlabeled } = split(y, 40);
    const tensorsBefore = tf.memory().numTensors;
    const surrogate = await MlpSurrogate.create(x, 2);
    const report = await surrogate.fit(labeled, unlabeled, { seed: 1, fixmatch: false });
    expect(report.maskRate).toBeNull();
    expect(report.steps).toBe(20); // 20 epochs of one batch of 40 rows
    const proba = await surrogate.predictProba(unlabeled);
    expect(proba[0] + proba[1]).toBeCloseTo(1, 5);
    expect(accuracy(proba, unlabeled, y)).toBeGreaterThan(0.95);
    surrogate.dispose();
    expect(tf.memory().numTensors).toBe(tensorsBefore);
  });

  it("runs MC dropout passes with dropout active", async () => {
    const { x } = blobs(50, 4, 3);
    // untrained weights: soft probabilities, so different dropout masks show in the output
    const surrogate = await MlpSurrogate.create(x, 2);
    const rows = Int32Array.from({ length: 10 }, (_, i) => i);
    const mc = await surrogate.predictProbaMc(rows, 4, 1);
    expect(mc.length).toBe(4 * 10 * 2);
    expect(Array.from(mc.subarray(0, 20))).not.toEqual(Array.from(mc.subarray(20, 40)));
    const mean = await surrogate.predictProba(rows);
    // the MC average approximates the evaluation-mode output (dropout's expectation)
    let avg = 0;
    for (let p = 0; p < 4; p++) avg += mc[p * 20] / 4;
    expect(Math.abs(avg - mean[0])).toBeLessThan(0.2);
    surrogate.dispose();
  });
});
