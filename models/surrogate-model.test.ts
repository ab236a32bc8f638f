import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBackend } from "./backend";
import { MlpSurrogate } from "./class-surrogate";
import { MclSurrogate } from "./mcl-surrogate";

beforeAll(async () => {
  process.env.CEREAL_TF_BACKEND = "wasm";
  await ensureBackend();
});

const x = { data: Float32Array.from({ length: 40 }, (_, i) => (i % 7) - 3), n: 10, d: 4 };
const rows = Int32Array.from([0, 1, 2]);

describe("a disposed surrogate", () => {
  it("frees its weights once, however often it is disposed, and refuses to predict or train", async () => {
    const before = tf.memory().numTensors;
    const classes = await MlpSurrogate.create(x, 3);
    const pairs = await MclSurrogate.create(x, 4);
    expect(tf.memory().numTensors).toBeGreaterThan(before);
    for (const surrogate of [classes, pairs]) {
      expect((await surrogate.predictProba(rows)).length).toBe(rows.length * (surrogate === classes ? 3 : 4));
      surrogate.dispose();
      surrogate.dispose();
      await expect(surrogate.predictProba(rows)).rejects.toThrow("surrogate was disposed");
    }
    await expect(classes.fit({ rows, labels: Int32Array.from([0, 1, 2]) }, Int32Array.from([3, 4]), { seed: 1, fixmatch: false })).rejects.toThrow("surrogate was disposed");
    await expect(pairs.fit({ a: Int32Array.from([0]), b: Int32Array.from([1]), same: Uint8Array.from([1]) }, { seed: 1 })).rejects.toThrow("surrogate was disposed");
    expect(tf.memory().numTensors).toBe(before);
  });
});
