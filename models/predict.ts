import * as tf from "@tensorflow/tfjs";
import type { Inputs } from "./inputs";
import type { Mlp } from "./network";
import type { Rng } from "./trainer-random";

/** rows per inference chunk: bounds backend memory at 100k-row predictions */
const PREDICT_CHUNK = 8192;

/**
 * softmax(model(x)) for the given rows, [rows x K] row-major, in chunks. With `rng`, each chunk
 * gets fresh dropout masks (an MC-dropout pass); without, dropout is off.
 */
export async function predictSoftmax(mlp: Mlp, x: Inputs, rows: Int32Array, rng: Rng | null): Promise<Float32Array> {
  const k = mlp.numClasses;
  const out = new Float32Array(rows.length * k);
  for (let start = 0; start < rows.length; start += PREDICT_CHUNK) {
    const chunk = rows.subarray(start, Math.min(start + PREDICT_CHUNK, rows.length));
    const xb = x.copyRows(chunk, new Float32Array(chunk.length * x.d));
    const p = tf.tidy(() => {
      const keep = rng ? mlp.keepMasks(chunk.length, rng) : null;
      return tf.softmax(mlp.forward(tf.tensor2d(xb, [chunk.length, x.d]), keep));
    });
    out.set(await p.data(), start * k);
    p.dispose();
  }
  return out;
}
