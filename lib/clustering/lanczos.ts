/**
 * The largest eigenpairs of a symmetric operator given only as y = A x: Lanczos tridiagonalisation
 * with full reorthogonalisation (Golub & Van Loan, Matrix Computations, 4th ed., 10.1 and 10.3.1),
 * Ritz pairs of T_m by the implicit QL method (EISPACK tql2, as in JAMA), stopped when the wanted
 * Ritz residuals |beta_m s_{m,i}| fall below the tolerance. An invariant subspace (beta = 0, e.g. a
 * graph with several components) is left by restarting from a fresh random vector orthogonal to
 * the basis. Memory: m vectors of length N.
 */
import { createRandom } from "@/lib/random";

export interface LanczosOptions {
  readonly seed?: number;
  /** residual tolerance of the wanted Ritz pairs (default 1e-8) */
  readonly tolerance?: number;
  /** largest Krylov dimension (default min(N, max(20 k, 200))) */
  readonly maxDimension?: number;
}

export interface EigenPairs {
  /** descending */
  readonly values: Float64Array;
  /** vector i is vectors[i * n .. (i + 1) * n) */
  readonly vectors: Float64Array;
  readonly dimension: number;
  readonly converged: boolean;
}

/**
 * Eigen-decomposition of the symmetric tridiagonal matrix with diagonal `diag` and off-diagonal
 * `off` (off[i] couples i and i + 1): ascending values, eigenvectors as columns of z (m x m row-major).
 */
export function tridiagonalEigen(diag: ArrayLike<number>, off: ArrayLike<number>): { values: Float64Array; z: Float64Array } {
  const m = diag.length;
  const d = Float64Array.from(diag);
  const e = new Float64Array(m);
  for (let i = 0; i < m - 1; i++) e[i] = off[i];
  const z = new Float64Array(m * m);
  for (let i = 0; i < m; i++) z[i * m + i] = 1;
  let f = 0;
  let tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < m; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
    let mm = l;
    while (mm < m) {
      if (Math.abs(e[mm]) <= eps * tst1) break;
      mm++;
    }
    if (mm > l) {
      do {
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < m; i++) d[i] -= h;
        f += h;
        p = d[mm];
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1];
        let s = 0;
        let s2 = 0;
        for (let i = mm - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = Math.hypot(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          for (let k = 0; k < m; k++) {
            h = z[k * m + i + 1];
            z[k * m + i + 1] = s * z[k * m + i] + c * h;
            z[k * m + i] = c * z[k * m + i] - s * h;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]) > eps * tst1);
    }
    d[l] += f;
    e[l] = 0;
  }
  // sort ascending, carrying the eigenvector columns
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => d[a] - d[b]);
  const values = Float64Array.from(order, (i) => d[i]);
  const sorted = new Float64Array(m * m);
  for (let row = 0; row < m; row++) order.forEach((col, j) => (sorted[row * m + j] = z[row * m + col]));
  return { values, z: sorted };
}

function dot(a: Float64Array, ao: number, b: Float64Array, bo: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[ao + i] * b[bo + i];
  return s;
}

export function largestEigenpairs(apply: (x: Float64Array, y: Float64Array) => void, n: number, k: number, options: LanczosOptions = {}): EigenPairs {
  if (k < 1 || k > n) throw new RangeError(`cannot take ${k} eigenpairs of an ${n} x ${n} operator`);
  const tolerance = options.tolerance ?? 1e-8;
  const maxDimension = Math.min(n, options.maxDimension ?? Math.max(20 * k, 200));
  const random = createRandom(options.seed ?? 0);
  const q = new Float64Array(maxDimension * n);
  const alpha: number[] = [];
  const beta: number[] = [];
  const w = new Float64Array(n);

  /** a random unit vector orthogonal to the first j basis vectors, into slot j; false if none */
  const freshVector = (j: number): boolean => {
    for (let attempt = 0; attempt < 5; attempt++) {
      for (let i = 0; i < n; i++) w[i] = random.next() - 0.5;
      for (let pass = 0; pass < 2; pass++)
        for (let i = 0; i < j; i++) {
          const c = dot(q, i * n, w, 0, n);
          for (let t = 0; t < n; t++) w[t] -= c * q[i * n + t];
        }
      const norm = Math.sqrt(dot(w, 0, w, 0, n));
      if (norm > 1e-8) {
        for (let t = 0; t < n; t++) q[j * n + t] = w[t] / norm;
        return true;
      }
    }
    return false;
  };

  freshVector(0);
  let converged = false;
  let dimension = 0;
  let ritz: { values: Float64Array; z: Float64Array } | null = null;
  for (let j = 0; j < maxDimension; j++) {
    const y = new Float64Array(n);
    apply(q.subarray(j * n, (j + 1) * n), y);
    const a = dot(q, j * n, y, 0, n);
    alpha.push(a);
    // full reorthogonalisation against every basis vector, twice ("twice is enough")
    for (let pass = 0; pass < 2; pass++)
      for (let i = 0; i <= j; i++) {
        const c = dot(q, i * n, y, 0, n);
        for (let t = 0; t < n; t++) y[t] -= c * q[i * n + t];
      }
    const b = Math.sqrt(dot(y, 0, y, 0, n));
    dimension = j + 1;
    const last = j + 1 === maxDimension;
    const check = dimension >= k && (dimension % 10 === 0 || last || b < 1e-10);
    if (check) {
      ritz = tridiagonalEigen(alpha, beta);
      const m = dimension;
      let worst = 0;
      for (let i = 0; i < k; i++) worst = Math.max(worst, Math.abs(b * ritz.z[(m - 1) * m + (m - 1 - i)]));
      if (worst < tolerance && b >= 1e-10) {
        converged = true;
        break;
      }
    }
    if (last) break;
    if (b < 1e-10) {
      // invariant subspace: continue the basis with a fresh orthogonal direction, decoupled (beta = 0)
      beta.push(0);
      if (!freshVector(j + 1)) {
        converged = true;
        break;
      }
    } else {
      beta.push(b);
      for (let t = 0; t < n; t++) q[(j + 1) * n + t] = y[t] / b;
    }
  }
  if (!ritz || ritz.values.length !== dimension) ritz = tridiagonalEigen(alpha, beta.slice(0, dimension - 1));
  const m = dimension;
  const values = new Float64Array(k);
  const vectors = new Float64Array(k * n);
  for (let i = 0; i < k; i++) {
    const col = m - 1 - i;
    values[i] = ritz.values[col];
    for (let r = 0; r < m; r++) {
      const s = ritz.z[r * m + col];
      if (s === 0) continue;
      for (let t = 0; t < n; t++) vectors[i * n + t] += s * q[r * n + t];
    }
  }
  return { values, vectors, dimension, converged };
}
