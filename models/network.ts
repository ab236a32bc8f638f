import * as tf from "@tensorflow/tfjs";
import { Rng } from "./trainer-random";

/**
 * The surrogate's network: D -> hidden x [Dense, ReLU, Dropout] -> Dense K logits.
 *
 * Written on tf core ops with a hand-derived backward pass instead of tf.layers + autograd:
 * on the wasm backend a training step is dominated by per-kernel dispatch, so the forward uses
 * tf.fused.matMul (matmul + bias + relu in one kernel), the backward is the minimum set of
 * kernels, and all weights live in one flat vector so the optimiser is a handful of kernels.
 *
 * Dropout keeps units with a 0/1 mask and no 1/(1-p) rescaling during training; evaluation
 * scales activations by (1-p) instead. Same expectation as inverted dropout, and it lets the
 * backward gate be step(h): h > 0 exactly where the unit was kept and the ReLU was active.
 */

export interface MlpConfig {
  readonly inputDim: number;
  readonly numClasses: number;
  /** hidden widths, default 4 x 128 */
  readonly hidden?: readonly number[];
  /** dropout rate after each hidden ReLU, default 0.2 */
  readonly dropout?: number;
}

export const DEFAULT_HIDDEN: readonly number[] = [128, 128, 128, 128];

interface LayerShape {
  readonly fanIn: number;
  readonly fanOut: number;
  /** offsets of W (fanIn x fanOut, row-major) and b in the flat parameter vector */
  readonly wOffset: number;
  readonly bOffset: number;
}

/** one step's view of theta, per layer */
export interface LayerWeights {
  readonly w: tf.Tensor2D[];
  readonly b: tf.Tensor1D[];
  /** transposed w, only when asked for (backward passes) */
  readonly wT: tf.Tensor2D[];
}

export class Mlp {
  readonly dims: readonly number[];
  readonly dropout: number;
  readonly layers: readonly LayerShape[];
  readonly numParams: number;
  /** all weights and biases, layer after layer: [W0 (row-major), b0, W1, b1, ...] */
  readonly theta: tf.Variable<tf.Rank.R1>;

  constructor(config: MlpConfig, seed: number) {
    this.dims = [config.inputDim, ...(config.hidden ?? DEFAULT_HIDDEN), config.numClasses];
    this.dropout = config.dropout ?? 0.2;
    const layers: LayerShape[] = [];
    let offset = 0;
    for (let l = 0; l + 1 < this.dims.length; l++) {
      const fanIn = this.dims[l];
      const fanOut = this.dims[l + 1];
      layers.push({ fanIn, fanOut, wOffset: offset, bOffset: offset + fanIn * fanOut });
      offset += fanIn * fanOut + fanOut;
    }
    this.layers = layers;
    this.numParams = offset;
    // tidy frees the initial tensor; the variable survives (tidy never disposes variables)
    this.theta = tf.tidy(() => tf.variable(tf.tensor1d(this.initialTheta(seed)), true));
  }

  get numClasses(): number {
    return this.dims[this.dims.length - 1];
  }

  get numHidden(): number {
    return this.layers.length - 1;
  }

  /** Glorot-uniform weights and zero biases (Keras Dense defaults), from the seed */
  initialTheta(seed: number): Float32Array {
    const rng = new Rng(seed);
    const theta = new Float32Array(this.numParams);
    for (const layer of this.layers) {
      const limit = Math.sqrt(6 / (layer.fanIn + layer.fanOut));
      for (let i = 0; i < layer.fanIn * layer.fanOut; i++) theta[layer.wOffset + i] = (2 * rng.next() - 1) * limit;
    }
    return theta;
  }

  /** re-initialises the weights in place (a round starts from scratch) */
  reset(seed: number): void {
    tf.tidy(() => this.theta.assign(tf.tensor1d(this.initialTheta(seed))));
  }

  /** sets the weights from a flat vector (a warm start from the previous round's, tests, hand computations) */
  setTheta(theta: Float32Array): void {
    if (theta.length !== this.numParams) throw new Error(`expected ${this.numParams} parameters, got ${theta.length}`);
    tf.tidy(() => this.theta.assign(tf.tensor1d(theta)));
  }

  /**
   * The weights of every layer for one step, sliced from theta once and shared by the step's
   * forward and backward passes. wT are the transposes the backward pass multiplies with: the
   * wasm backend's matMul is ~10x slower with transposeA/transposeB than on plain operands, so
   * explicit (cheap) transposes come first.
   */
  weights(withTransposes = false): LayerWeights {
    const w: tf.Tensor2D[] = [];
    const b: tf.Tensor1D[] = [];
    const wT: tf.Tensor2D[] = [];
    for (const layer of this.layers) {
      const wl = tf.slice1d(this.theta, layer.wOffset, layer.fanIn * layer.fanOut).reshape([layer.fanIn, layer.fanOut]) as tf.Tensor2D;
      w.push(wl);
      b.push(tf.slice1d(this.theta, layer.bOffset, layer.fanOut));
      if (withTransposes) wT.push(tf.transpose(wl));
    }
    return { w, b, wT };
  }

  /**
   * Logits with dropout given by keep masks (one [rows x width] 0/1 mask per hidden layer), or
   * in evaluation mode when keep is null. With cache, records each layer's input for backward.
   * Call inside tf.tidy.
   */
  forward(x: tf.Tensor2D, keep: readonly tf.Tensor2D[] | null, weights?: LayerWeights, cache?: tf.Tensor2D[]): tf.Tensor2D {
    const { w, b } = weights ?? this.weights();
    let h = x;
    const last = this.layers.length - 1;
    for (let l = 0; l < last; l++) {
      cache?.push(h);
      const a = tf.fused.matMul({ a: h, b: w[l], bias: b[l], activation: "relu" });
      h = (keep ? tf.mul(a, keep[l]) : tf.mul(a, 1 - this.dropout)) as tf.Tensor2D;
    }
    cache?.push(h);
    return tf.fused.matMul({ a: h, b: w[last], bias: b[last] }) as tf.Tensor2D;
  }

  /**
   * Gradient of the loss w.r.t. theta, given dLoss/dlogits and the layer inputs of a training
   * forward. Backprop of y = h W + b: [dW; db] = [h, 1]^T dz (one matmul, and exactly theta's
   * layout of a layer), dh = dz W^T; through ReLU and the 0/1 dropout mask the gate is step(h),
   * see the class comment. Call inside tf.tidy.
   */
  backward(inputs: readonly tf.Tensor2D[], weights: LayerWeights, dLogits: tf.Tensor2D): tf.Tensor1D {
    const parts: tf.Tensor1D[] = [];
    const rows = dLogits.shape[0];
    const ones = tf.ones([1, rows]);
    let dz = dLogits;
    for (let l = this.layers.length - 1; l >= 0; l--) {
      const h = inputs[l];
      const hT1 = tf.concat([tf.transpose(h), ones]) as tf.Tensor2D;
      // parts are assembled back to front, then reversed to the theta layout
      parts.push(tf.matMul(hT1, dz).reshape([-1]));
      if (l > 0) dz = tf.mul(tf.matMul(dz, weights.wT[l]), tf.step(h)) as tf.Tensor2D;
    }
    return tf.concat(parts.reverse()) as tf.Tensor1D;
  }

  /**
   * 0/1 keep masks for each hidden layer for a batch of `rows`, from the rng. scratch: host
   * buffers to reuse across steps (backends copy on upload; a mask's tensor must be disposed
   * before its buffer is refilled, which tf.tidy around a step guarantees).
   */
  keepMasks(rows: number, rng: Rng, scratch?: Float32Array[]): tf.Tensor2D[] {
    const masks: tf.Tensor2D[] = [];
    for (let l = 0; l < this.numHidden; l++) {
      const width = this.layers[l].fanOut;
      let buffer = scratch?.[l];
      if (!buffer || buffer.length !== rows * width) {
        buffer = new Float32Array(rows * width);
        if (scratch) scratch[l] = buffer;
      }
      masks.push(tf.tensor2d(rng.fillKeep(buffer, this.dropout), [rows, width]));
    }
    return masks;
  }

  dispose(): void {
    this.theta.dispose();
  }
}
