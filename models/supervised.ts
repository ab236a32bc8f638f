import * as tf from "@tensorflow/tfjs";
import type { LabeledRows } from "@/lib/cereal/method/surrogate";
import type { Inputs } from "./inputs";
import { Mlp } from "./network";
import { Adam } from "./optimizers";
import { Rng } from "./trainer-random";

/** The supervised baseline (no FixMatch): Adam, minibatches, cross-entropy on labeled rows only. */
export interface SupervisedOptions {
  readonly seed: number;
  /** default 0.01 */
  readonly learningRate?: number;
  /** default 64 */
  readonly batchSize?: number;
  /** default 20 */
  readonly epochs?: number;
  readonly onStep?: (step: number, total: number) => void;
}

export interface SupervisedResult {
  readonly steps: number;
  /** mean cross-entropy over the last epoch */
  readonly finalLoss: number | null;
}

export async function trainSupervised(
  mlp: Mlp,
  x: Inputs,
  labeled: LabeledRows,
  options: SupervisedOptions,
): Promise<SupervisedResult> {
  const n = labeled.rows.length;
  if (n === 0) return { steps: 0, finalLoss: null };
  const batchSize = Math.min(options.batchSize ?? 64, n);
  const epochs = options.epochs ?? 20;
  const lr = options.learningRate ?? 0.01;
  const k = mlp.numClasses;
  const rng = new Rng(options.seed ^ 0x5eed);
  const optimizer = new Adam(mlp.numParams);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const batchesPerEpoch = Math.ceil(n / batchSize);
  const total = epochs * batchesPerEpoch;
  let step = 0;
  let lossSum = 0;
  try {
    for (let epoch = 0; epoch < epochs; epoch++) {
      rng.shuffle(order);
      const last = epoch === epochs - 1;
      lossSum = 0;
      for (let start = 0; start < n; start += batchSize) {
        // the last batch of an epoch may be short (DataLoader's drop_last=False)
        const size = Math.min(batchSize, n - start);
        const rows = new Int32Array(size);
        const targets = new Float32Array(size * k);
        const xb = new Float32Array(size * x.d);
        for (let i = 0; i < size; i++) {
          const r = order[start + i];
          rows[i] = labeled.rows[r];
          targets[i * k + labeled.labels[r]] = 1;
        }
        x.copyRows(rows, xb);
        const loss: tf.Scalar | undefined = tf.tidy(() => {
          const weights = mlp.weights(true);
          const inputs: tf.Tensor2D[] = [];
          const logits = mlp.forward(tf.tensor2d(xb, [size, x.d]), mlp.keepMasks(size, rng), weights, inputs);
          const y = tf.tensor2d(targets, [size, k]);
          // d mean CE / d logits = (softmax - onehot) / batch
          const grad = mlp.backward(inputs, weights, tf.mul(tf.sub(tf.softmax(logits), y), 1 / size) as tf.Tensor2D);
          optimizer.step(mlp.theta, grad, lr);
          return last ? (tf.neg(tf.sum(tf.mul(y, tf.logSoftmax(logits)))) as tf.Scalar) : undefined;
        });
        if (loss) {
          lossSum += (await loss.data())[0];
          loss.dispose();
        }
        step += 1;
        options.onStep?.(step, total);
        // let the event loop deliver progress and other work between chunks of steps
        if (step % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } finally {
    optimizer.dispose();
  }
  return { steps: step, finalLoss: lossSum / n };
}
