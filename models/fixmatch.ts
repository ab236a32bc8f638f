import * as tf from "@tensorflow/tfjs";
import type { LabeledRows } from "@/lib/cereal/surrogate";
import { Mlp } from "./mlp";
import { SgdNesterov } from "./optimizers";
import { BatchSampler, Rng } from "./random";

/**
 * FixMatch (Sohn et al. 2020) on embeddings. Augmentations for vectors: the weak view drops
 * input coordinates (rate 0.2); the strong view mixes an unlabeled row with another one of the
 * batch, lambda ~ Beta(a, a) folded to max(lambda, 1 - lambda) so the original dominates.
 * Loss = CE(labeled weak) + lambda_u * mean_u(mask * CE(onehot(argmax q), model(strong))),
 * q = softmax(model(weak)), mask = max q >= tau. Pseudo-labels carry no gradient.
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
  x: tf.Tensor2D,
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
  if (labeled.rows.length === 0) throw new Error("FixMatch needs at least one labeled row");
  if (unlabeled.length === 0) throw new Error("FixMatch needs unlabeled rows");

  const rng = new Rng(options.seed ^ 0xf1c5);
  const labeledPos = new BatchSampler(Int32Array.from({ length: labeled.rows.length }, (_, i) => i), rng);
  const unlabeledRows = new BatchSampler(unlabeled, rng);
  const optimizer = new SgdNesterov(mlp.numParams, options.momentum ?? 0.9, options.weightDecay ?? 5e-4);

  // per-step host buffers, allocated once
  const rows = new Int32Array(b + 2 * bu);
  const posL = new Int32Array(b);
  const rowsU = new Int32Array(bu);
  const perm = Int32Array.from({ length: bu }, (_, i) => i);
  const targetsL = new Float32Array(b * k);
  const inKeep = new Float32Array((b + bu) * mlp.dims[0]);
  // loss weights per row of the gradient batch: 1/B for labeled rows; lambda_u/(mu B) * mask for unlabeled
  const labeledWeight = tf.keep(tf.fill([b, 1], 1 / b));

  let maskSum = 0;
  let lossSum = 0;
  let lossLSum = 0;
  let lossUSum = 0;
  try {
    for (let step = 0; step < total; step++) {
      labeledPos.next(posL);
      unlabeledRows.next(rowsU);
      rng.shuffle(perm);
      targetsL.fill(0);
      for (let i = 0; i < b; i++) {
        rows[i] = labeled.rows[posL[i]];
        targetsL[i * k + labeled.labels[posL[i]]] = 1;
      }
      for (let i = 0; i < bu; i++) {
        rows[b + i] = rowsU[i];
        rows[b + bu + i] = rowsU[perm[i]];
      }
      let lam = rng.beta(alpha, alpha);
      lam = Math.max(lam, 1 - lam);
      // inverted dropout on the input: kept coordinates scaled by 1/(1-p), as nn.Dropout does
      for (let i = 0; i < inKeep.length; i++) inKeep[i] = rng.next() < pIn ? 0 : 1 / (1 - pIn);
      const keepWeak = tf.tidy(() => mlp.keepMasks(bu, rng));
      const keepGrad = tf.tidy(() => mlp.keepMasks(b + bu, rng));
      const reporting = step >= total - window;
      const out = tf.tidy(() => {
        const xb = tf.gather(x, tf.tensor1d(rows, "int32"));
        const [xLU, xPerm] = tf.split(xb, [b + bu, bu]) as tf.Tensor2D[];
        const weak = tf.mul(xLU, tf.tensor2d(inKeep, [b + bu, mlp.dims[0]]));
        const [weakL, weakU] = tf.split(weak, [b, bu]) as tf.Tensor2D[];
        const xU = tf.slice(xLU, [b, 0], [bu, -1]);
        const strong = tf.add(tf.mul(xU, lam), tf.mul(xPerm, 1 - lam)) as tf.Tensor2D;

        // pseudo-labels from the weak view: no cache, no gradient
        const q = tf.softmax(mlp.forward(weakU, keepWeak));
        const maxQ = tf.max(q, 1, true);
        const mask = tf.cast(tf.greaterEqual(maxQ, tau), "float32");
        const pseudo = tf.oneHot(tf.argMax(q, 1), k).asType("float32");

        const cache = { inputs: [] as tf.Tensor2D[], weights: [] as tf.Tensor2D[] };
        const logits = mlp.forward(tf.concat([weakL, strong]) as tf.Tensor2D, keepGrad, cache);
        const p = tf.softmax(logits);
        const target = tf.concat([tf.tensor2d(targetsL, [b, k]), pseudo]);
        const weight = tf.concat([labeledWeight, tf.mul(mask, lambdaU / bu)]);
        // d loss / d logits for weighted softmax cross-entropy: w * (p - target)
        const grad = mlp.backward(cache, tf.mul(tf.sub(p, target), weight) as tf.Tensor2D);
        optimizer.step(mlp.theta, grad, cosineLr(lr, step, total));
        const maskCount = tf.sum(mask);
        if (!reporting) return [maskCount];
        // per-row CE, weighted like the gradient: the labeled and unlabeled terms of the loss
        const ce = tf.mul(tf.neg(tf.sum(tf.mul(target, tf.logSoftmax(logits)), 1, true)), weight);
        const [ceL, ceU] = tf.split(ce, [b, bu]);
        return [maskCount, tf.sum(ceL), tf.sum(ceU)];
      });
      tf.dispose([keepWeak, keepGrad]);
      if (reporting) {
        const values = await Promise.all(out.map((t) => t.data()));
        maskSum += values[0][0] / bu;
        lossLSum += values[1][0];
        lossUSum += values[2][0];
        lossSum += values[1][0] + values[2][0];
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
    finalLoss: lossSum / window,
    labeledLoss: lossLSum / window,
    unlabeledLoss: lossUSum / window,
  };
}
