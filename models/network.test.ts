import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBackend } from "./backend";
import { Mlp } from "./network";
import { Rng } from "./trainer-random";

beforeAll(async () => {
  // tests never load the native packages (tfjs-node-gpu may be an uninstalled shell here)
  process.env.CEREAL_TF_BACKEND = "wasm";
  await ensureBackend();
});

describe("Mlp", () => {
  it("computes the forward pass of a 2-layer toy by hand", () => {
    // 2 -> [3] -> 2, dropout 0.5: evaluation scales the hidden layer by (1 - 0.5)
    const mlp = new Mlp({ inputDim: 2, numClasses: 2, hidden: [3], dropout: 0.5 }, 1);
    // theta layout per layer: W (fanIn x fanOut, row-major) then b
    const w0 = [1, -1, 0.5, 2, 1, -1];
    const b0 = [0, 0.5, -0.5];
    const w1 = [1, 0, -1, 1, 2, -2];
    const b1 = [0.1, -0.1];
    mlp.setTheta(Float32Array.from([...w0, ...b0, ...w1, ...b1]));
    // x = [1, 2]: z = [1*1 + 2*2 + 0, 1*-1 + 2*1 + 0.5, 1*0.5 + 2*-1 - 0.5] = [5, 1.5, -2]
    // h = relu(z) * 0.5 = [2.5, 0.75, 0]
    // logits = [2.5*1 + 0.75*-1 + 0*2 + 0.1, 2.5*0 + 0.75*1 + 0*-2 - 0.1] = [1.85, 0.65]
    const evalLogits = tf.tidy(() => mlp.forward(tf.tensor2d([[1, 2]]), null).dataSync());
    expect(Array.from(evalLogits)).toEqual([expect.closeTo(1.85, 5), expect.closeTo(0.65, 5)]);
    // training mode with keep mask [1, 0, 1]: h = [5, 0, 0] (no rescaling while training)
    const trainLogits = tf.tidy(() =>
      mlp.forward(tf.tensor2d([[1, 2]]), [tf.tensor2d([[1, 0, 1]])]).dataSync(),
    );
    expect(Array.from(trainLogits)).toEqual([expect.closeTo(5.1, 5), expect.closeTo(-0.1, 5)]);
    mlp.dispose();
  });

  it("hand-written backward equals TF.js autograd", () => {
    const mlp = new Mlp({ inputDim: 5, numClasses: 3, hidden: [7, 6], dropout: 0.3 }, 7);
    const rng = new Rng(3);
    const rows = 9;
    const xData = Float32Array.from({ length: rows * 5 }, () => rng.normal());
    const gData = Float32Array.from({ length: rows * 3 }, () => rng.normal());
    const keepData = [rng.fillKeep(new Float32Array(rows * 7), 0.3), rng.fillKeep(new Float32Array(rows * 6), 0.3)];
    const [manual, auto] = tf.tidy(() => {
      const x = tf.tensor2d(xData, [rows, 5]);
      const keep = [tf.tensor2d(keepData[0], [rows, 7]), tf.tensor2d(keepData[1], [rows, 6])];
      const upstream = tf.tensor2d(gData, [rows, 3]);
      const weights = mlp.weights(true);
      const inputs: tf.Tensor2D[] = [];
      mlp.forward(x, keep, weights, inputs);
      const m = mlp.backward(inputs, weights, upstream);
      // autograd of sum(logits * upstream) w.r.t. theta has the same value as backprop of upstream
      const a = tf.grad((theta: tf.Tensor) => {
        let h: tf.Tensor2D = x;
        for (let l = 0; l < mlp.layers.length; l++) {
          const layer = mlp.layers[l];
          const w = tf.slice(theta, layer.wOffset, layer.fanIn * layer.fanOut).reshape([layer.fanIn, layer.fanOut]) as tf.Tensor2D;
          const z = tf.add(tf.matMul(h, w), tf.slice(theta, layer.bOffset, layer.fanOut)) as tf.Tensor2D;
          h = l < mlp.layers.length - 1 ? (tf.mul(tf.relu(z), keep[l]) as tf.Tensor2D) : z;
        }
        return tf.sum(tf.mul(h, upstream));
      })(mlp.theta);
      return [m.dataSync(), a.dataSync()];
    });
    expect(manual.length).toBe(mlp.numParams);
    let maxDiff = 0;
    for (let i = 0; i < manual.length; i++) maxDiff = Math.max(maxDiff, Math.abs(manual[i] - auto[i]));
    expect(maxDiff).toBeLessThan(1e-4);
    // and the gradient is not trivially zero
    expect(Math.max(...Array.from(auto, Math.abs))).toBeGreaterThan(0.1);
    mlp.dispose();
  });
});
