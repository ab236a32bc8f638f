/**
 * Projection of points onto their first principal component, for the dip test of a space (ACE
 * step 1). Power iteration on the covariance C = Xc^T Xc / n, applied as Xc^T (Xc v) so no D x D
 * or N x N matrix is formed; converges at rate lambda_2 / lambda_1 from a seeded random start.
 */
import { createRandom } from "@/lib/random";

export interface PrincipalComponentOptions {
  readonly seed?: number;
  /** stop when 1 - |<v_t, v_{t-1}>| falls below this (default 1e-12) */
  readonly tolerance?: number;
  readonly maxIterations?: number;
}

export interface PrincipalComponent {
  /** unit direction (D) */
  readonly direction: Float64Array;
  /** projection of every centred point on it (N) */
  readonly projection: Float64Array;
  readonly iterations: number;
}

export function firstPrincipalComponent(x: Float32Array | Float64Array, n: number, d: number, options: PrincipalComponentOptions = {}): PrincipalComponent {
  if (n < 1 || x.length !== n * d) throw new RangeError(`points of length ${x.length} are not an [${n}, ${d}] matrix`);
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 1000;
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += x[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= n;
  const random = createRandom(options.seed ?? 0);
  let v = new Float64Array(d);
  for (let j = 0; j < d; j++) v[j] = random.next() - 0.5;
  normalize(v);
  const projection = new Float64Array(n);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    project(x, mean, v, n, d, projection);
    const next = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      const p = projection[i];
      for (let j = 0; j < d; j++) next[j] += p * (x[i * d + j] - mean[j]);
    }
    if (normalize(next) === 0) break; // all points equal: any direction projects to 0
    let cos = 0;
    for (let j = 0; j < d; j++) cos += next[j] * v[j];
    v = next;
    if (1 - Math.abs(cos) < tolerance) {
      iterations++;
      break;
    }
  }
  project(x, mean, v, n, d, projection);
  return { direction: v, projection, iterations };
}

function project(x: Float32Array | Float64Array, mean: Float64Array, v: Float64Array, n: number, d: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += (x[i * d + j] - mean[j]) * v[j];
    out[i] = s;
  }
}

function normalize(v: Float64Array): number {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j] * v[j];
  const norm = Math.sqrt(s);
  if (norm > 0) for (let j = 0; j < v.length; j++) v[j] /= norm;
  return norm;
}
