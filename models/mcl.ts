import * as tf from "@tensorflow/tfjs";
import type { LabeledPairs } from "@/lib/cereal/pairwise/pair-surrogate";
import type { Inputs } from "./inputs";
import type { Mlp } from "./network";
import { cosineLr } from "./fixmatch";
import { Adam } from "./optimizers";
import { BatchSampler, Rng } from "./trainer-random";
import { strongView, weakView } from "./unlabeled-views";

/**
 * MCL training (meta classification likelihood; L2C, Hsu et al. 2019; paper appendix B): a
 * network with K' softmax outputs learns from answered pairs only. For a pair (i, j) with
 * s = 1 (same) or 0 (different), P_ij = sum_k p_ik p_jk and
 *   loss_ij = -[s log(P_ij + eps) + (1 - s) log(1 - P_ij + eps)].
 * The gradient is hand-derived (like Mlp.backward) so a step is a fixed handful of kernels.
 */

export const MCL_EPS = 1e-7;

/**
 * Mean MCL loss of B pairs and its gradient w.r.t. the logits. logits is [2B x K]: rows 0..B-1
 * are the pairs' first items, rows B..2B-1 their second items; same is [B] of 0/1.
 * With g_i = dL/dP * p_j (dP/dp_ik = p_jk) the softmax Jacobian gives
 *   dL/dz_i = p_i * (g_i - <p_i, g_i>),   dL/dP = (-s/(P + eps) + (1 - s)/(1 - P + eps)) / B.
 * Call inside tf.tidy.
 */
export function mclLossAndGrad(logits: tf.Tensor2D, same: tf.Tensor1D, eps = MCL_EPS): { loss: tf.Scalar; dLogits: tf.Tensor2D } {
  const b = logits.shape[0] / 2;
  const p = tf.softmax(logits);
  const [pa, pb] = tf.split(p, 2, 0) as [tf.Tensor2D, tf.Tensor2D];
  const P = tf.sum(tf.mul(pa, pb), 1);
  const notSame = tf.sub(1, same);
  const loss = tf.neg(tf.mean(tf.add(tf.mul(same, tf.log(tf.add(P, eps))), tf.mul(notSame, tf.log(tf.add(tf.sub(1, P), eps)))))) as tf.Scalar;
  const dP = tf.div(tf.add(tf.neg(tf.div(same, tf.add(P, eps))), tf.div(notSame, tf.add(tf.sub(1, P), eps))), b).reshape([b, 1]);
  const g = tf.concat([tf.mul(dP, pb), tf.mul(dP, pa)]);
  const dLogits = tf.mul(p, tf.sub(g, tf.sum(tf.mul(p, g), 1, true))) as tf.Tensor2D;
  return { loss, dLogits };
}

export interface MclOptions {
  readonly seed: number;
  /** Adam step size (default 0.01, the paper's) */
  readonly learningRate?: number;
  /**
   * the step size over the fit: FixMatch's cosine decay (cosineLr, default since issue #25: lower
   * NMI error on digits and the demo, MEASUREMENTS.md) or the paper's constant one
   */
  readonly schedule?: "constant" | "cosine";
  /** L2 weight decay added to the gradient, torch Adam's weight_decay (default 5e-4) */
  readonly weightDecay?: number;
  /** pairs per step (default 32) */
  readonly batchSize?: number;
  /** passes over the answered pairs (default 50) */
  readonly epochs?: number;
  /**
   * share of "same" pairs in every batch, each kind drawn uniformly with replacement (0.5: fully
   * balanced); null: batches drawn uniformly from all pairs, at their natural share
   */
  readonly positiveShare?: number | null;
  /** the cap on steps per fit, so a round stays short (default 600) */
  readonly maxSteps?: number;
  /** a FixMatch-style consistency term on unlabeled rows (MclConsistency); absent or null: pairs only */
  readonly consistency?: MclConsistency | null;
  readonly onStep?: (step: number, total: number) => void;
}

/**
 * FixMatch's consistency loss added to MCL (issue #25): every step also draws `unlabeledBatch`
 * rows of the whole embedding matrix (every item is unlabeled in pairwise mode), takes the argmax
 * of the weak view's p(.|x) as a pseudo cluster id where max p >= threshold, and adds
 * lambdaU * mean(mask * CE(pseudo id, strong view)) to the pair loss. The cluster ids are the
 * network's own, so the term sharpens them along the embedding's structure without naming classes.
 */
export interface MclConsistency {
  /** unlabeled rows per step (default 128) */
  readonly unlabeledBatch?: number;
  /** confidence threshold tau (default 0.95) */
  readonly threshold?: number;
  /** weight of the consistency term (default 1) */
  readonly lambdaU?: number;
  /** input dropout of the weak view (default 0.2) */
  readonly weakDropout?: number;
  /** Beta(a, a) of the strong view's mixup (default 9) */
  readonly mixupAlpha?: number;
}

export interface MclResult {
  readonly steps: number;
  /** mean loss over the last (up to) 32 steps */
  readonly finalLoss: number | null;
}

export const MCL_DEFAULTS: {
  learningRate: number;
  schedule: "constant" | "cosine";
  weightDecay: number;
  batchSize: number;
  epochs: number;
  maxSteps: number;
  positiveShare: number | null;
} = {
  learningRate: 0.01,
  schedule: "cosine",
  weightDecay: 5e-4,
  batchSize: 32,
  epochs: 50,
  maxSteps: 600,
  positiveShare: null,
};

/**
 * Trains the network on answered pairs with Adam; steps: epochs x ceil(pairs / batch), capped at
 * maxSteps. Batches are drawn at the pairs' natural share of "same" by default. Balancing
 * (positiveShare 0.5: half "same", half "different" per batch, as random pairs are about
 * 1 - 1/K "different") is an option, not the default: on digits (K' = 20, 2000 / 5000 random
 * pairs, 600 steps) it made the network merge classes, NMI of the argmax ids against the truth
 * 0.58 / 0.92 balanced, 0.80 / 0.92 at a share of 0.25, 0.94 / 0.955 natural (1 x 128 MLP).
 */
export async function trainMcl(mlp: Mlp, x: Inputs, pairs: LabeledPairs, options: MclOptions): Promise<MclResult> {
  const n = pairs.a.length;
  if (n === 0) return { steps: 0, finalLoss: null };
  const batch = options.batchSize ?? MCL_DEFAULTS.batchSize;
  const epochs = options.epochs ?? MCL_DEFAULTS.epochs;
  const lr = options.learningRate ?? MCL_DEFAULTS.learningRate;
  const wd = options.weightDecay ?? MCL_DEFAULTS.weightDecay;
  const total = Math.min(epochs * Math.ceil(n / batch), options.maxSteps ?? MCL_DEFAULTS.maxSteps);
  const positives: number[] = [];
  const negatives: number[] = [];
  const share = options.positiveShare === undefined ? MCL_DEFAULTS.positiveShare : options.positiveShare;
  for (let i = 0; i < n; i++) (share !== null && pairs.same[i] ? positives : negatives).push(i);
  const positivesPerBatch = positives.length && negatives.length ? Math.round((share ?? 0) * batch) : 0;
  const rng = new Rng(options.seed ^ 0x6d636c);
  const optimizer = new Adam(mlp.numParams);
  const cosine = (options.schedule ?? MCL_DEFAULTS.schedule) === "cosine";
  const stepSize = (step: number) => (cosine ? cosineLr(lr, step - 1, total) : lr);
  const applyDecay = (grad: tf.Tensor1D) => (wd > 0 ? (tf.add(grad, tf.mul(mlp.theta, wd)) as tf.Tensor1D) : grad);
  const consistency = options.consistency ?? null;
  const bu = consistency ? (consistency.unlabeledBatch ?? 128) : 0;
  const tau = consistency?.threshold ?? 0.95;
  const lambdaU = consistency?.lambdaU ?? 1;
  const pIn = consistency?.weakDropout ?? 0.2;
  const alpha = consistency?.mixupAlpha ?? 9;
  const unlabeled = consistency ? new BatchSampler(Int32Array.from({ length: x.n }, (_, i) => i), rng) : null;
  const rowsU = new Int32Array(bu);
  const perm = Int32Array.from({ length: bu }, (_, i) => i);
  const weakU = new Float32Array(bu * x.d);
  const weakKeep: Float32Array[] = [];
  const rows = new Int32Array(2 * batch);
  const same = new Float32Array(batch);
  // the rows that carry gradient: the pairs' first items, their second items, then the strong views
  const xb = new Float32Array((2 * batch + bu) * x.d);
  const recent: number[] = [];
  try {
    for (let step = 1; step <= total; step++) {
      for (let i = 0; i < batch; i++) {
        const kind = negatives.length === 0 ? positives : i < positivesPerBatch ? positives : negatives;
        const pair = kind[rng.int(kind.length)];
        rows[i] = pairs.a[pair];
        rows[batch + i] = pairs.b[pair];
        same[i] = pairs.same[pair];
      }
      x.copyRows(rows, xb);
      if (unlabeled) {
        unlabeled.next(rowsU);
        rng.shuffle(perm);
        weakView(x, rowsU, rng, weakU, pIn);
        strongView(x, rowsU, perm, rng, xb, 2 * batch, alpha);
      }
      const loss = tf.tidy(() => {
        const weights = mlp.weights(true);
        const inputs: tf.Tensor2D[] = [];
        const logits = mlp.forward(tf.tensor2d(xb, [2 * batch + bu, x.d]), mlp.keepMasks(2 * batch + bu, rng), weights, inputs);
        if (!unlabeled) {
          const { loss, dLogits } = mclLossAndGrad(logits, tf.tensor1d(same));
          optimizer.step(mlp.theta, applyDecay(mlp.backward(inputs, weights, dLogits)), stepSize(step));
          return loss;
        }
        const [pairLogits, strongLogits] = tf.split(logits, [2 * batch, bu]) as [tf.Tensor2D, tf.Tensor2D];
        const { loss, dLogits } = mclLossAndGrad(pairLogits, tf.tensor1d(same));
        // pseudo cluster ids from the weak view: constants, no gradient flows through them
        const q = tf.softmax(mlp.forward(tf.tensor2d(weakU, [bu, x.d]), mlp.keepMasks(bu, rng, weakKeep), weights));
        const mask = tf.cast(tf.greaterEqual(tf.max(q, 1, true), tau), "float32");
        // int32 oneHot then a cast: tfjs-backend-wasm 4.22 writes int32 bits when asked for float32
        const pseudo = tf.cast(tf.oneHot(tf.argMax(q, 1), mlp.numClasses), "float32");
        const dStrong = tf.mul(tf.sub(tf.softmax(strongLogits), pseudo), tf.mul(mask, lambdaU / bu));
        optimizer.step(mlp.theta, applyDecay(mlp.backward(inputs, weights, tf.concat([dLogits, dStrong]) as tf.Tensor2D)), stepSize(step));
        return loss;
      });
      // reading a loss back syncs the backend: only over the last 32 steps
      if (step > total - 32) recent.push((await loss.data())[0]);
      loss.dispose();
      options.onStep?.(step, total);
      if (step % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    optimizer.dispose();
  }
  return { steps: total, finalLoss: recent.length ? recent.reduce((s, v) => s + v, 0) / recent.length : null };
}
