import * as tf from "@tensorflow/tfjs";

/**
 * Optimisers on one flat parameter vector: a few kernels per step instead of a few per weight
 * tensor, which is what tf.train.* would cost on the wasm backend.
 */

/** a zero state vector; tidy frees the initial tensor (tidy never disposes variables) */
function zeroState(size: number): tf.Variable<tf.Rank.R1> {
  return tf.tidy(() => tf.variable(tf.zeros([size]) as tf.Tensor1D, false));
}

export interface FlatOptimizer {
  /** theta <- update(theta, grad); call inside tf.tidy */
  step(theta: tf.Variable<tf.Rank.R1>, grad: tf.Tensor1D, lr: number): void;
  dispose(): void;
}

/** torch.optim.SGD(nesterov=True, weight_decay): d = g + wd*theta; v = mu*v + d; theta -= lr*(d + mu*v) */
export class SgdNesterov implements FlatOptimizer {
  private readonly velocity: tf.Variable<tf.Rank.R1>;

  constructor(
    size: number,
    private readonly momentum: number,
    private readonly weightDecay: number,
  ) {
    this.velocity = zeroState(size);
  }

  step(theta: tf.Variable<tf.Rank.R1>, grad: tf.Tensor1D, lr: number): void {
    const d = this.weightDecay > 0 ? tf.add(grad, tf.mul(theta, this.weightDecay)) : grad;
    const v = tf.add(tf.mul(this.velocity, this.momentum), d);
    this.velocity.assign(v as tf.Tensor1D);
    theta.assign(tf.sub(theta, tf.mul(tf.add(d, tf.mul(v, this.momentum)), lr)) as tf.Tensor1D);
  }

  dispose(): void {
    this.velocity.dispose();
  }
}

/** Adam (Kingma & Ba, Algorithm 1) with bias correction, eps outside the square root as in Keras/torch */
export class Adam implements FlatOptimizer {
  private readonly m: tf.Variable<tf.Rank.R1>;
  private readonly v: tf.Variable<tf.Rank.R1>;
  private t = 0;

  constructor(
    size: number,
    private readonly beta1 = 0.9,
    private readonly beta2 = 0.999,
    private readonly eps = 1e-7,
  ) {
    this.m = zeroState(size);
    this.v = zeroState(size);
  }

  step(theta: tf.Variable<tf.Rank.R1>, grad: tf.Tensor1D, lr: number): void {
    this.t += 1;
    const m = tf.add(tf.mul(this.m, this.beta1), tf.mul(grad, 1 - this.beta1));
    const v = tf.add(tf.mul(this.v, this.beta2), tf.mul(tf.square(grad), 1 - this.beta2));
    this.m.assign(m as tf.Tensor1D);
    this.v.assign(v as tf.Tensor1D);
    // bias corrections folded into the step size and eps (Adam paper, end of section 2)
    const c1 = 1 - Math.pow(this.beta1, this.t);
    const c2 = 1 - Math.pow(this.beta2, this.t);
    const stepSize = (lr * Math.sqrt(c2)) / c1;
    const update = tf.div(m, tf.add(tf.sqrt(v), this.eps * Math.sqrt(c2)));
    theta.assign(tf.sub(theta, tf.mul(update, stepSize)) as tf.Tensor1D);
  }

  dispose(): void {
    this.m.dispose();
    this.v.dispose();
  }
}
