import * as tf from "@tensorflow/tfjs";
import { Rng } from "./random";

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

/** what a training forward keeps for the backward pass */
export interface ForwardCache {
  /** the input of every layer (after the previous layer's dropout), inputs[0] = x */
  readonly inputs: tf.Tensor2D[];
  /** layer weights sliced from the flat vector for this step */
  readonly weights: tf.Tensor2D[];
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
    this.theta = tf.variable(tf.tensor1d(this.initialTheta(seed)), true);
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

  /** sets the weights from a flat vector (tests, hand computations) */
  setTheta(theta: Float32Array): void {
    if (theta.length !== this.numParams) throw new Error(`expected ${this.numParams} parameters, got ${theta.length}`);
    tf.tidy(() => this.theta.assign(tf.tensor1d(theta)));
  }

  /** W_l and b_l as views for this step (slices copy on wasm; 66k floats, negligible) */
  weights(): { w: tf.Tensor2D[]; b: tf.Tensor1D[] } {
    const w: tf.Tensor2D[] = [];
    const b: tf.Tensor1D[] = [];
    for (const layer of this.layers) {
      w.push(tf.slice1d(this.theta, layer.wOffset, layer.fanIn * layer.fanOut).reshape([layer.fanIn, layer.fanOut]));
      b.push(tf.slice1d(this.theta, layer.bOffset, layer.fanOut));
    }
    return { w, b };
  }

  /**
   * Logits with dropout given by keep masks (one [rows x width] 0/1 mask per hidden layer), or
   * in evaluation mode when keep is null. Call inside tf.tidy.
   */
  forward(x: tf.Tensor2D, keep: readonly tf.Tensor2D[] | null, cache?: { inputs: tf.Tensor2D[]; weights: tf.Tensor2D[] }): tf.Tensor2D {
    const { w, b } = this.weights();
    let h = x;
    const last = this.layers.length - 1;
    for (let l = 0; l < last; l++) {
      cache?.inputs.push(h);
      const a = tf.fused.matMul({ a: h, b: w[l], bias: b[l], activation: "relu" });
      h = (keep ? tf.mul(a, keep[l]) : tf.mul(a, 1 - this.dropout)) as tf.Tensor2D;
    }
    cache?.inputs.push(h);
    if (cache) cache.weights.push(...w);
    return tf.fused.matMul({ a: h, b: w[last], bias: b[last] }) as tf.Tensor2D;
  }

  /**
   * Gradient of the loss w.r.t. theta, given dLoss/dlogits and the cache of a training forward.
   * Backprop of y = h W + b: dW = h^T dz, db = sum_rows dz, dh = dz W^T; through ReLU and the
   * 0/1 dropout mask the gate is step(h), see the class comment. Call inside tf.tidy.
   */
  backward(cache: ForwardCache, dLogits: tf.Tensor2D): tf.Tensor1D {
    const parts: tf.Tensor[] = [];
    let dz = dLogits;
    for (let l = this.layers.length - 1; l >= 0; l--) {
      const h = cache.inputs[l];
      // parts are assembled back to front, then reversed to the theta layout
      parts.push(tf.sum(dz, 0));
      parts.push(tf.matMul(h, dz, true, false).reshape([-1]));
      if (l > 0) dz = tf.mul(tf.matMul(dz, cache.weights[l], false, true), tf.step(h)) as tf.Tensor2D;
    }
    return tf.concat(parts.reverse() as tf.Tensor1D[]) as tf.Tensor1D;
  }

  /** 0/1 keep masks for each hidden layer for a batch of `rows`, from the rng */
  keepMasks(rows: number, rng: Rng): tf.Tensor2D[] {
    const masks: tf.Tensor2D[] = [];
    for (let l = 0; l < this.numHidden; l++) {
      const width = this.layers[l].fanOut;
      masks.push(tf.tensor2d(rng.fillKeep(new Float32Array(rows * width), this.dropout), [rows, width]));
    }
    return masks;
  }

  dispose(): void {
    this.theta.dispose();
  }
}
