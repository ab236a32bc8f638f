/**
 * Prediction-powered pair counts (issue #25, experimental: the harness records it beside the
 * argmax estimate with `simulate --mode pairwise --pair-ppi`). ARI and FMI of a clustering C against
 * the unknown classes Y are functions of pair counts over all N2 = n(n-1)/2 pairs:
 *   b = #{c_i = c_j} (known),  s = #{y_i = y_j},  a = #{c_i = c_j and y_i = y_j},
 * and a pair answer observes f_ij = [y_i = y_j] directly. Each stage s of uniform pairs (inclusion
 * probability q = stage size / pairs not yet taken, the draw record's q) gives, for a target
 * t in {s, a} with weight w_ij (1, or [c_i = c_j]),
 *   T_s = K_s + lambda P_s + sum_{ij in stage s} (w f_ij - lambda w g_ij) / q_ij
 * where K_s counts the pairs answered before stage s exactly, g_ij = sum_k p_ik p_jk is the
 * same-probability of the model of the round that drew stage s (round s - 1: it never saw stage s's
 * answers, so g is out of sample), and P_s sums w g over the pairs not taken before stage s (all
 * pairs in O(nk) per cluster, less the taken ones). E[T_s | past] = t for lambda fixed given the
 * past; lambda is power-tuned on the stage (Cov(wf, wg) / Var(wg), clipped to [0, 1], as PPI++).
 * Stages are combined with weights proportional to their sizes (fixed before the draws); the seed
 * stage, which has no model, enters only when no later stage exists (then lambda = 0: plain HT).
 * NMI and AMI are not pair counts: they stay the argmax estimate.
 */

export interface PairStage {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly same: Uint8Array;
  /** each pair's inclusion probability in its stage */
  readonly q: Float64Array;
  /** p(.|x) [n x k] of the model that drew the stage; null for the seed stage */
  readonly proba: Float32Array | null;
  readonly k: number;
}

export interface PairCounts {
  /** pairs with c_i = c_j (exact) */
  readonly b: number;
  /** estimated pairs with y_i = y_j */
  readonly s: number;
  /** estimated pairs with c_i = c_j and y_i = y_j */
  readonly a: number;
  readonly total: number;
}

const sameProbability = (proba: Float32Array, k: number, i: number, j: number) => {
  let p = 0;
  for (let c = 0; c < k; c++) p += proba[i * k + c] * proba[j * k + c];
  return p;
};

/** sum of g_ij over all pairs i < j within each group of `groups` (one group: pass all zeros) */
function allPairsSum(proba: Float32Array, k: number, groups: Int32Array): Map<number, number> {
  const sums = new Map<number, { s: Float64Array; sq: number }>();
  for (let i = 0; i < groups.length; i++) {
    let g = sums.get(groups[i]);
    if (!g) sums.set(groups[i], (g = { s: new Float64Array(k), sq: 0 }));
    for (let c = 0; c < k; c++) {
      const p = proba[i * k + c];
      g.s[c] += p;
      g.sq += p * p;
    }
  }
  const out = new Map<number, number>();
  for (const [group, { s, sq }] of sums) {
    let total = 0;
    for (let c = 0; c < k; c++) total += s[c] * s[c];
    out.set(group, (total - sq) / 2);
  }
  return out;
}

function tunedLambda(f: Float64Array, g: Float64Array): number {
  const m = f.length;
  if (m < 2) return 0;
  let mf = 0;
  let mg = 0;
  for (let i = 0; i < m; i++) {
    mf += f[i];
    mg += g[i];
  }
  mf /= m;
  mg /= m;
  let cov = 0;
  let varG = 0;
  for (let i = 0; i < m; i++) {
    cov += (f[i] - mf) * (g[i] - mg);
    varG += (g[i] - mg) ** 2;
  }
  return varG > 0 ? Math.min(1, Math.max(0, cov / varG)) : 0;
}

/** The pair counts of clustering `clusterIds` from the answered stages, in order (stage 0 first). */
export function pairCounts(clusterIds: Int32Array, stages: readonly PairStage[]): PairCounts {
  const n = clusterIds.length;
  const total = (n * (n - 1)) / 2;
  const sizes = new Map<number, number>();
  for (const c of clusterIds) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  let b = 0;
  for (const m of sizes.values()) b += (m * (m - 1)) / 2;
  const ones = new Int32Array(n);

  // per stage, each target's T_s; known counts and taken predictions accumulate over earlier stages
  const estimates: { weight: number; s: number; a: number }[] = [];
  let knownS = 0;
  let knownA = 0;
  const earlier: PairStage[] = [];
  for (const stage of stages) {
    const usable = stage.proba !== null || stages.length === 1;
    if (usable && stage.a.length > 0) {
      const m = stage.a.length;
      const fS = new Float64Array(m);
      const gS = new Float64Array(m);
      const fA = new Float64Array(m);
      const gA = new Float64Array(m);
      for (let t = 0; t < m; t++) {
        const i = stage.a[t];
        const j = stage.b[t];
        const w = clusterIds[i] === clusterIds[j] ? 1 : 0;
        const g = stage.proba ? sameProbability(stage.proba, stage.k, i, j) : 0;
        fS[t] = stage.same[t];
        gS[t] = g;
        fA[t] = w * stage.same[t];
        gA[t] = w * g;
      }
      let poolS = 0;
      let poolA = 0;
      if (stage.proba) {
        poolS = allPairsSum(stage.proba, stage.k, ones).get(0)!;
        for (const v of allPairsSum(stage.proba, stage.k, clusterIds).values()) poolA += v;
        for (const e of earlier)
          for (let t = 0; t < e.a.length; t++) {
            const g = sameProbability(stage.proba, stage.k, e.a[t], e.b[t]);
            poolS -= g;
            if (clusterIds[e.a[t]] === clusterIds[e.b[t]]) poolA -= g;
          }
      }
      const lambdaS = stage.proba ? tunedLambda(fS, gS) : 0;
      const lambdaA = stage.proba ? tunedLambda(fA, gA) : 0;
      let residualS = 0;
      let residualA = 0;
      for (let t = 0; t < m; t++) {
        residualS += (fS[t] - lambdaS * gS[t]) / stage.q[t];
        residualA += (fA[t] - lambdaA * gA[t]) / stage.q[t];
      }
      estimates.push({ weight: m, s: knownS + lambdaS * poolS + residualS, a: knownA + lambdaA * poolA + residualA });
    }
    for (let t = 0; t < stage.a.length; t++) {
      knownS += stage.same[t];
      if (clusterIds[stage.a[t]] === clusterIds[stage.b[t]]) knownA += stage.same[t];
    }
    earlier.push(stage);
  }
  const weight = estimates.reduce((w, e) => w + e.weight, 0);
  if (weight === 0) return { b, s: knownS, a: knownA, total };
  const s = estimates.reduce((v, e) => v + (e.weight / weight) * e.s, 0);
  const a = estimates.reduce((v, e) => v + (e.weight / weight) * e.a, 0);
  // a count cannot leave [0, its bounds]: project (a <= b, a <= s, s <= total - (b - a))
  const sClipped = Math.min(total, Math.max(1, s));
  const aClipped = Math.min(b, sClipped, Math.max(0, a));
  return { b, s: Math.max(sClipped, aClipped), a: aClipped, total };
}

/** ARI and FMI from pair counts (sklearn's pair-confusion form, as lib/metrics/ari.ts) */
export function pairCountMetrics({ a, b, s, total }: PairCounts): { ari: number; fmi: number } {
  const tp = a;
  const fp = b - a;
  const fn = s - a;
  const tn = total - b - s + a;
  const ari = fn === 0 && fp === 0 ? 1 : (2 * (tp * tn - fn * fp)) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
  const fmi = b > 0 && s > 0 ? tp / Math.sqrt(b * s) : 0;
  return { ari, fmi };
}
