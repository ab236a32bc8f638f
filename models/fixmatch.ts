import * as tf from "@tensorflow/tfjs";
import type { LabeledRows } from "@/lib/cereal/method/surrogate";
import type { Inputs } from "./inputs";
import { Mlp } from "./network";
import { SgdNesterov } from "./optimizers";
import { BatchSampler, Rng } from "./trainer-random";
import { strongView, weakView } from "./unlabeled-views";

/**
 * FixMatch (Sohn et al. 2020) on embeddings. Augmentations for vectors: the weak view drops
 * input coordinates (rate 0.2); the strong view mixes an unlabeled row with another one of the
 * batch, lambda ~ Beta(a, a) folded to max(lambda, 1 - lambda) so the original dominates.
 * Loss = CE(labeled weak) + lambda_u * mean_u(mask * CE(onehot(argmax q), model(strong))),
 * q = softmax(model(weak)), mask = max q >= tau. Pseudo-labels carry no gradient.
 *
 * A step is two forwards: the weak unlabeled rows (224, no backward: the pseudo-labels are
 * constants) and the rows that carry loss (32 labeled + 224 strong) with the backward. Both run
 * with the network's dropout active, as FixMatch's single train-mode forward over all views.
 * Mixup uses the raw rows (no input dropout), as the strong view replaces the weak one.
 */
export interface FixMatchOptions {
  readonly seed: number;
  /** default 512 */
  readonly steps?: number;
  /** confidence threshold tau, default 0.95 */
  readonly threshold?: number;
  /** labeled batch B, default 32 */
  readonly batchSize?: number;
  /** unlabeled ratio mu, default 7 (mu * B = 224) */
  readonly mu?: number;
  /** unlabeled loss weight lambda_u, default 1 */
  readonly lambdaU?: number;
  /** default 0.03 */
  readonly learningRate?: number;
  /** Nesterov momentum, default 0.9 */
  readonly momentum?: number;
  /** default 5e-4 */
  readonly weightDecay?: number;
  /** input dropout of the weak view, default 0.2 */
  readonly weakDropout?: number;
  /** Beta(a, a) of the mixup lambda, default 9 */
  readonly mixupAlpha?: number;
  /** how many final steps the reported mask rate averages over, default 32 */
  readonly reportWindow?: number;
  readonly onStep?: (step: number, total: number) => void;
}

export interface FixMatchResult {
  readonly steps: number;
  /** share of unlabeled rows with max q >= tau, averaged over the last reportWindow steps */
  readonly maskRate: number;
  /** total loss, labeled CE and unlabeled (masked) CE, averaged over the last reportWindow steps */
  readonly finalLoss: number;
  readonly labeledLoss: number;
  readonly unlabeledLoss: number;
}

/** FixMatch's cosine decay: lr * cos(7 pi k / (16 K)) (Sohn et al. 2020, section 3.1 / appendix) */
export function cosineLr(lr: number, step: number, total: number): number {
  return lr * Math.cos((7 * Math.PI * step) / (16 * total));
}

export async function trainFixMatch(
  mlp: Mlp,
  x: Inputs,
  labeled: LabeledRows,
  unlabeled: Int32Array,
  options: FixMatchOptions,
): Promise<FixMatchResult> {
  const total = options.steps ?? 512;
  const tau = options.threshold ?? 0.95;
  const b = options.batchSize ?? 32;
  const bu = Math.round((options.mu ?? 7) * b);
  const lambdaU = options.lambdaU ?? 1;
  const lr = options.learningRate ?? 0.03;
  const pIn = options.weakDropout ?? 0.2;
  const alpha = options.mixupAlpha ?? 9;
  const window = Math.max(1, Math.min(options.reportWindow ?? 32, total));
  const k = mlp.numClasses;
  const d = x.d;
  if (labeled.rows.length === 0) throw new Error("FixMatch needs at least one labeled row");
  if (unlabeled.length === 0) throw new Error("FixMatch needs unlabeled rows");

  const rng = new Rng(options.seed ^ 0xf1c5);
  const labeledPos = new BatchSampler(Int32Array.from({ length: labeled.rows.length }, (_, i) => i), rng);
  const unlabeledRows = new BatchSampler(unlabeled, rng);
  const optimizer = new SgdNesterov(mlp.numParams, options.momentum ?? 0.9, options.weightDecay ?? 5e-4);

  // per-step host buffers, allocated once (see Inputs for why batches are built on the host)
  const rowsL = new Int32Array(b);
  const posL = new Int32Array(b);
  const rowsU = new Int32Array(bu);
  const perm = Int32Array.from({ length: bu }, (_, i) => i);
  const targetsL = new Float32Array(b * k);
  const weakU = new Float32Array(bu * d);
  // the rows that carry gradient: labeled (weak view) then unlabeled (strong view)
  const gradIn = new Float32Array((b + bu) * d);
  const weakKeep: Float32Array[] = [];
  const gradKeep: Float32Array[] = [];
  // loss weight of each gradient row: 1/B for labeled rows; lambda_u/(mu B) * mask for unlabeled
  const labeledWeight = tf.keep(tf.fill([b, 1], 1 / b));
  const inScale = 1 / (1 - pIn);

  let maskSum = 0;
  let lossLSum = 0;
  let lossUSum = 0;
  try {
    for (let step = 0; step < total; step++) {
      labeledPos.next(posL);
      unlabeledRows.next(rowsU);
      rng.shuffle(perm);
      targetsL.fill(0);
      for (let i = 0; i < b; i++) {
        rowsL[i] = labeled.rows[posL[i]];
        targetsL[i * k + labeled.labels[posL[i]]] = 1;
      }
      // weak view: inverted dropout on the input (kept coordinates scaled by 1/(1-p), as nn.Dropout)
      x.copyRows(rowsL, gradIn, 0);
      rng.dropout(gradIn, pIn, inScale, 0, b * d);
      weakView(x, rowsU, rng, weakU, pIn);
      strongView(x, rowsU, perm, rng, gradIn, b, alpha);
      const reporting = step >= total - window;
      const out = tf.tidy(() => {
        const weights = mlp.weights(true);
        // pseudo-labels from the weak view: no gradient flows through them
        const q = tf.softmax(mlp.forward(tf.tensor2d(weakU, [bu, d]), mlp.keepMasks(bu, rng, weakKeep), weights));
        const mask = tf.cast(tf.greaterEqual(tf.max(q, 1, true), tau), "float32");
        // int32 oneHot then a cast: tfjs-backend-wasm 4.22 writes int32 bits when asked for float32
        const pseudo = tf.cast(tf.oneHot(tf.argMax(q, 1), k), "float32");

        const inputs: tf.Tensor2D[] = [];
        const logits = mlp.forward(tf.tensor2d(gradIn, [b + bu, d]), mlp.keepMasks(b + bu, rng, gradKeep), weights, inputs);
        const target = tf.concat([tf.tensor2d(targetsL, [b, k]), pseudo]);
        const weight = tf.concat([labeledWeight, tf.mul(mask, lambdaU / bu)]);
        // d loss / d logits of the weighted softmax cross-entropy: w * (softmax - target)
        const dLogits = tf.mul(tf.sub(tf.softmax(logits), target), weight) as tf.Tensor2D;
        optimizer.step(mlp.theta, mlp.backward(inputs, weights, dLogits), cosineLr(lr, step, total));
        const maskCount = tf.sum(mask);
        if (!reporting) return [maskCount];
        // the loss itself is only needed for the report: the labeled and unlabeled terms
        const ce = tf.mul(tf.neg(tf.sum(tf.mul(target, tf.logSoftmax(logits)), 1, true)), weight);
        const [ceL, ceU] = tf.split(ce, [b, bu]);
        return [maskCount, tf.sum(ceL), tf.sum(ceU)];
      });
      if (reporting) {
        const values = await Promise.all(out.map((t) => t.data()));
        maskSum += values[0][0] / bu;
        lossLSum += values[1][0];
        lossUSum += values[2][0];
      }
      tf.dispose(out);
      options.onStep?.(step + 1, total);
      // let the event loop deliver progress and other work between chunks of steps
      if ((step + 1) % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    optimizer.dispose();
    labeledWeight.dispose();
  }
  return {
    steps: total,
    maskRate: maskSum / window,
    finalLoss: (lossLSum + lossUSum) / window,
    labeledLoss: lossLSum / window,
    unlabeledLoss: lossUSum / window,
  };
}
