import type { Inputs } from "./inputs";
import type { Rng } from "./trainer-random";

/**
 * FixMatch's two views of a batch of unlabeled rows on embeddings (Sohn et al. 2020, adapted to
 * vectors), shared by the clusterwise trainer (fixmatch.ts) and the pairwise one's consistency
 * term (mcl.ts).
 */

/** weak view: the rows with inverted input dropout at rate p (kept coordinates scaled by 1/(1-p)) into out */
export function weakView(x: Inputs, rows: Int32Array, rng: Rng, out: Float32Array, p: number): void {
  x.copyRows(rows, out, 0);
  rng.dropout(out, p, 1 / (1 - p));
}

/**
 * strong view: each row mixed with the row at perm[i] of the batch, lambda ~ Beta(a, a) folded to
 * max(lambda, 1 - lambda) so the row itself dominates, written into out from row `at`
 */
export function strongView(x: Inputs, rows: Int32Array, perm: Int32Array, rng: Rng, out: Float32Array, at: number, alpha: number): void {
  const d = x.d;
  let lam = rng.beta(alpha, alpha);
  lam = Math.max(lam, 1 - lam);
  for (let i = 0; i < rows.length; i++) {
    const u = rows[i];
    const v = rows[perm[i]];
    const o = (at + i) * d;
    for (let j = 0; j < d; j++) out[o + j] = lam * x.value(u, j) + (1 - lam) * x.value(v, j);
  }
}
