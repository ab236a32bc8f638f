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
 * Stages are combined with weights proportional to their sizes (fixed before the draws); a stage
 * without a model (the seed stage) enters only when no stage has one (then lambda = 0: plain HT).
 * Each stage's T_s has the sampling variance m Var(r) of its m residuals r = (w f - lambda w g) / q
 * (with replacement, lambda taken as fixed); the combined counts carry the weighted variances and
 * the covariance of a and s, so a metric of (a, s) gets a delta-method interval (pairPpiEstimate).
 * NMI and AMI are not pair counts: pairPpiEstimate corrects them by the FMI difference.
 * A stage of the uncertain or anchor design is split (stagesByRound): its own pairs, whose
 * inclusion probabilities depend on the whole candidate pool or the draw order, only add to the
 * known counts; its uniform share, drawn after them over the pairs left, is a uniform stage.
 */

import { clampMetric, METRIC_KEYS, METRIC_RANGE, type MetricKey, type MetricValues } from "@/lib/metrics";
import { normalQuantile, type Interval, type IntervalReport } from "../method/intervals";
import type { TestClustering } from "../method/problem";
import { isUniformPairDraw } from "./pair-designs";
import type { LabeledPairs } from "./pair-surrogate";

export interface PairStage {
  /**
   * the pairs are a uniform draw over the pairs not taken before them, q exact (isUniformPairDraw);
   * false: an uncertain or anchor design's own pairs, which only add to the known counts
   */
  readonly uniform: boolean;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly same: Uint8Array;
  /** each pair's inclusion probability in its stage */
  readonly q: Float64Array;
  /**
   * p(.|x) [n x k] of the fits of the round that drew the stage (several: an ensemble of refits,
   * g is their mean same-probability); empty for the seed stage
   */
  readonly models: readonly Float32Array[];
  readonly k: number;
  /**
   * each pair's stratum where the stage is a stratified draw (uniform within each stratum, each
   * pair's q its stratum's): the sampling variance is summed over the strata; absent: one stratum
   * (bench/pair-strata.ts draws a share of each stage within the clustering's clusters)
   */
  readonly stratum?: Uint8Array;
}

export interface PairCounts {
  /** pairs with c_i = c_j (exact) */
  readonly b: number;
  /** estimated pairs with y_i = y_j */
  readonly s: number;
  /** estimated pairs with c_i = c_j and y_i = y_j */
  readonly a: number;
  readonly total: number;
  /** sampling variances of s and a and their covariance (0 when nothing was drawn) */
  readonly varS: number;
  readonly varA: number;
  readonly covAS: number;
}

const sameProbability = (proba: Float32Array, k: number, i: number, j: number) => {
  let p = 0;
  for (let c = 0; c < k; c++) p += proba[i * k + c] * proba[j * k + c];
  return p;
};

/** g_ij: the stage's models' mean same-probability (0 without a model) */
const stageSameProbability = (stage: PairStage, i: number, j: number) =>
  stage.models.reduce((g, proba) => g + sameProbability(proba, stage.k, i, j), 0) / Math.max(1, stage.models.length);

/** sum of g over all pairs within each group, the stage's models averaged */
function stagePairsSum(stage: PairStage, groups: Int32Array): Map<number, number> {
  const out = new Map<number, number>();
  for (const proba of stage.models)
    for (const [group, v] of allPairsSum(proba, stage.k, groups)) out.set(group, (out.get(group) ?? 0) + v / stage.models.length);
  return out;
}

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

/**
 * The answered pairs as stages, in draw order (a draw record's `round`), each with the p(.|x) of
 * the models fixed before it was drawn (they never saw its answers); a stage without models (the
 * seed stage) corrects nothing. A stage of the uncertain or anchor design is two: first its own
 * pairs (their inclusion probabilities depend on the whole candidate pool or the draw order, so
 * they only add to the known counts), then its uniform pairs, a uniform draw over the pairs not
 * taken before them, the own ones included (isUniformPairDraw): given the own pairs, their q is
 * exact, so they correct as a random-pairs stage does. `draws` is aligned with `pairs`;
 * models.get(s) holds stage s's models' p(.|x) [n x k] (one fit, or an ensemble's).
 * response.get(s), the share of stage s's drawn pairs that were answered (skips and "unsure" leave
 * a stage), scales its q: the answered pairs are taken as a uniform sample of the drawn ones
 * (default 1).
 */
export function stagesByRound(
  pairs: LabeledPairs,
  draws: readonly { readonly round: number; readonly q: number; readonly design: string; readonly score: number | null }[],
  models: ReadonlyMap<number, readonly Float32Array[]>,
  k: number,
  response: ReadonlyMap<number, number> = new Map(),
): PairStage[] {
  const rounds = [...new Set(draws.map((d) => d.round))].sort((x, y) => x - y);
  return rounds.flatMap((round) => {
    const answered = response.get(round) ?? 1;
    if (!(answered > 0 && answered <= 1)) throw new RangeError(`stage ${round}: the answered share must be in (0, 1], got ${answered}`);
    const part = (uniform: boolean): PairStage[] => {
      const rows = draws.flatMap((d, i) => (d.round === round && isUniformPairDraw(d) === uniform ? [i] : []));
      if (rows.length === 0) return [];
      return [
        {
          uniform,
          a: Int32Array.from(rows, (i) => pairs.a[i]),
          b: Int32Array.from(rows, (i) => pairs.b[i]),
          same: Uint8Array.from(rows, (i) => pairs.same[i]),
          q: Float64Array.from(rows, (i) => draws[i].q * answered),
          models: uniform ? (models.get(round) ?? []) : [],
          k,
        },
      ];
    };
    return [...part(false), ...part(true)];
  });
}

/** The simulator's stage models: round r draws stage r + 1, so stage s has round s - 1's fits. */
export function modelsOfDrawingRounds(modelsByRound: readonly (readonly Float32Array[] | null)[]): Map<number, readonly Float32Array[]> {
  return new Map(modelsByRound.flatMap((models, r) => (models?.length ? [[r + 1, models] as const] : [])));
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
  const estimates: { weight: number; s: number; a: number; varS: number; varA: number; covAS: number }[] = [];
  let knownS = 0;
  let knownA = 0;
  const earlier: PairStage[] = [];
  const anyModelled = stages.some((s) => s.uniform && s.models.length > 0);
  for (const stage of stages) {
    const modelled = stage.models.length > 0;
    const usable = stage.uniform && (modelled || !anyModelled);
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
        const g = stageSameProbability(stage, i, j);
        fS[t] = stage.same[t];
        gS[t] = g;
        fA[t] = w * stage.same[t];
        gA[t] = w * g;
      }
      let poolS = 0;
      let poolA = 0;
      if (modelled) {
        poolS = stagePairsSum(stage, ones).get(0)!;
        for (const v of stagePairsSum(stage, clusterIds).values()) poolA += v;
        for (const e of earlier)
          for (let t = 0; t < e.a.length; t++) {
            const g = stageSameProbability(stage, e.a[t], e.b[t]);
            poolS -= g;
            if (clusterIds[e.a[t]] === clusterIds[e.b[t]]) poolA -= g;
          }
      }
      const lambdaS = modelled ? tunedLambda(fS, gS) : 0;
      const lambdaA = modelled ? tunedLambda(fA, gA) : 0;
      const rS = Float64Array.from(fS, (f, t) => (f - lambdaS * gS[t]) / stage.q[t]);
      const rA = Float64Array.from(fA, (f, t) => (f - lambdaA * gA[t]) / stage.q[t]);
      const residualS = rS.reduce((x, y) => x + y, 0);
      const residualA = rA.reduce((x, y) => x + y, 0);
      estimates.push({
        weight: m,
        s: knownS + lambdaS * poolS + residualS,
        a: knownA + lambdaA * poolA + residualA,
        varS: stratifiedVariance(rS, rS, stage.stratum),
        varA: stratifiedVariance(rA, rA, stage.stratum),
        covAS: stratifiedVariance(rA, rS, stage.stratum),
      });
    }
    for (let t = 0; t < stage.a.length; t++) {
      knownS += stage.same[t];
      if (clusterIds[stage.a[t]] === clusterIds[stage.b[t]]) knownA += stage.same[t];
    }
    earlier.push(stage);
  }
  const weight = estimates.reduce((w, e) => w + e.weight, 0);
  if (weight === 0) return { b, s: knownS, a: knownA, total, varS: 0, varA: 0, covAS: 0 };
  const combine = (f: (e: (typeof estimates)[number]) => number, power: 1 | 2) => estimates.reduce((v, e) => v + (e.weight / weight) ** power * f(e), 0);
  const s = combine((e) => e.s, 1);
  const a = combine((e) => e.a, 1);
  const variances = { varS: combine((e) => e.varS, 2), varA: combine((e) => e.varA, 2), covAS: combine((e) => e.covAS, 2) };
  // a count cannot leave [0, its bounds]: project (a <= b, a <= s, s <= total - (b - a))
  const sClipped = Math.min(total, Math.max(1, s));
  const aClipped = Math.min(b, sClipped, Math.max(0, a));
  return { b, s: Math.max(sClipped, aClipped), a: aClipped, total, ...variances };
}

/** sumVariance within each stratum, summed: the variance of a stratified sample's sum (one stratum without `stratum`) */
function stratifiedVariance(x: Float64Array, y: Float64Array, stratum: Uint8Array | undefined): number {
  if (!stratum) return sumVariance(x, y);
  let total = 0;
  for (const h of new Set(stratum)) {
    const rows = Int32Array.from(stratum.keys()).filter((t) => stratum[t] === h);
    total += sumVariance(Float64Array.from(rows, (t) => x[t]), Float64Array.from(rows, (t) => y[t]));
  }
  return total;
}

/** m times the sample covariance of x and y: the variance (x = y) of a sum of m i.i.d. draws */
function sumVariance(x: Float64Array, y: Float64Array): number {
  const m = x.length;
  if (m < 2) return 0;
  const mx = x.reduce((u, v) => u + v, 0) / m;
  const my = y.reduce((u, v) => u + v, 0) / m;
  let c = 0;
  for (let i = 0; i < m; i++) c += (x[i] - mx) * (y[i] - my);
  return (c / (m - 1)) * m;
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

/** value and delta-method standard error of f(a, s) under the counts' sampling (co)variances */
function deltaMethod(counts: PairCounts, f: (c: PairCounts) => number): { value: number; se: number } {
  const value = f(counts);
  const h = Math.max(1, 1e-4 * counts.total);
  const ga = (f({ ...counts, a: counts.a + h }) - f({ ...counts, a: counts.a - h })) / (2 * h);
  const gs = (f({ ...counts, s: counts.s + h }) - f({ ...counts, s: counts.s - h })) / (2 * h);
  const variance = ga * ga * counts.varA + gs * gs * counts.varS + 2 * ga * gs * counts.covAS;
  return { value, se: Math.sqrt(Math.max(0, variance)) };
}

export interface PairPpiEstimate {
  readonly estimate: MetricValues;
  /** level intervals of the corrected metrics (estimate +- z se); the other metrics keep `fallback`'s */
  readonly interval: Record<MetricKey, Interval>;
}

/**
 * How much of the correction the point estimate takes: `full` (argmax + the whole correction D),
 * or `tuned`: argmax + w D with the weight that minimises the estimated squared error of
 * argmax + w D, w = max(0, D^2 - se^2) / D^2 (D^2 - se^2 estimates argmax's squared bias, se^2 is
 * the correction's sampling variance): near 0 where the correction is mostly noise (the drawing
 * models fit the answers weakly), near 1 where argmax is far off.
 */
export type PairCorrectionWeight = "full" | "tuned";

const correctionWeight = (gap: number, se: number) => (gap * gap > 0 ? Math.max(0, gap * gap - se * se) / (gap * gap) : 0);

/**
 * One clustering's prediction-powered estimate from its pair counts and the argmax estimate of the
 * same round: ARI and FMI are the pair counts' own; NMI, AMI and the V-measure (NMI's arithmetic
 * twin) are argmax's plus the FMI correction, FMI_ppi - FMI_argmax (on digits the FMI gap between
 * the truth and the argmax table tracks the NMI gap: issue #25 note). ACC and AP stay argmax's.
 * `weight` scales the corrections (PairCorrectionWeight). Intervals: the full correction +- z se by
 * the delta method on (a, s), widened to hold the argmax value (the correction of NMI by the FMI
 * gap is not exact, and argmax is what the app shows), so they hold every weight's point estimate;
 * `fallback` gives the uncorrected metrics' ones.
 */
export function pairPpiEstimate(
  counts: PairCounts,
  argmax: MetricValues,
  fallback: Record<MetricKey, readonly [number, number]> | null,
  level = 0.9,
  weight: PairCorrectionWeight = "full",
): PairPpiEstimate {
  const z = normalQuantile(0.5 + level / 2);
  const fmi = deltaMethod(counts, (c) => pairCountMetrics(c).fmi);
  const ari = deltaMethod(counts, (c) => pairCountMetrics(c).ari);
  const gap = (d: { value: number; se: number }, key: MetricKey) => d.value - argmax[key];
  const w = (d: { value: number; se: number }, key: MetricKey) => (weight === "full" ? 1 : correctionWeight(gap(d, key), d.se));
  const fmiGap = { gap: gap(fmi, "fmi"), w: w(fmi, "fmi"), se: fmi.se };
  const corrected: Partial<Record<MetricKey, { gap: number; w: number; se: number }>> = {
    fmi: fmiGap,
    ari: { gap: gap(ari, "ari"), w: w(ari, "ari"), se: ari.se },
    nmi: fmiGap,
    ami: fmiGap,
    vMeasure: fmiGap,
  };
  const estimate = {} as MetricValues;
  const interval = {} as Record<MetricKey, Interval>;
  for (const key of METRIC_KEYS) {
    const c = corrected[key];
    estimate[key] = clampMetric(key, c ? argmax[key] + c.w * c.gap : argmax[key]);
    const full = argmax[key] + (c?.gap ?? 0);
    interval[key] = c
      ? [clampMetric(key, Math.min(full - z * c.se, argmax[key])), clampMetric(key, Math.max(full + z * c.se, argmax[key]))]
      : [fallback?.[key][0] ?? argmax[key], fallback?.[key][1] ?? argmax[key]];
  }
  return { estimate, interval };
}

/**
 * Whether the drawing models predict the answers of the stages they drew better than chance: the
 * Pearson correlation r of the answers f and the models' same-probabilities g, pooled over every
 * uniform stage with a model, tested one-sided at 5% (Fisher: atanh(r) sqrt(m - 3) > 1.645).
 * null without such a stage, or with fewer than 4 of its pairs, or when f or g does not vary.
 */
export function drawingModelsInformative(stages: readonly PairStage[]): boolean | null {
  const f: number[] = [];
  const g: number[] = [];
  for (const stage of stages) {
    if (!stage.uniform || stage.models.length === 0) continue;
    for (let t = 0; t < stage.a.length; t++) {
      f.push(stage.same[t]);
      g.push(stageSameProbability(stage, stage.a[t], stage.b[t]));
    }
  }
  const m = f.length;
  if (m < 4) return null;
  const mean = (x: number[]) => x.reduce((sum, v) => sum + v, 0) / m;
  const [mf, mg] = [mean(f), mean(g)];
  let cov = 0;
  let varF = 0;
  let varG = 0;
  for (let t = 0; t < m; t++) {
    cov += (f[t] - mf) * (g[t] - mg);
    varF += (f[t] - mf) ** 2;
    varG += (g[t] - mg) ** 2;
  }
  if (!(varF > 0 && varG > 0)) return null;
  const r = Math.min(1 - 1e-12, cov / Math.sqrt(varF * varG));
  return Math.atanh(r) * Math.sqrt(m - 3) > normalQuantile(0.95);
}

/** the metrics whose pair-count interval is argmax's value shifted by the FMI correction */
const SHIFTED_BY_FMI: readonly MetricKey[] = ["nmi", "ami", "vMeasure"];

/**
 * A clustering's pair-count intervals as they stand when the drawing models are not shown
 * informative (drawingModelsInformative not true): NMI, AMI and V-measure get their whole range,
 * the others are kept.
 */
export function withoutFmiShift(interval: Record<MetricKey, Interval>): Record<MetricKey, Interval> {
  const kept = { ...interval };
  for (const key of SHIFTED_BY_FMI) kept[key] = [...METRIC_RANGE[key]];
  return kept;
}

/**
 * A pairwise round's intervals with the pair counts' (pairPpiEstimate's, around the argmax estimate
 * it keeps) for NMI, AMI, V-measure, ARI and FMI of every clustering; ACC, AP and pBest stay the
 * bootstrap's (`report`). Until the drawing models have predicted the answers better than chance
 * (drawingModelsInformative not true: false, or no stage to judge them by yet, as in round 0),
 * NMI, AMI and V-measure get their whole range: their interval
 * shifts argmax's value by the FMI correction, and a model that knows nothing leaves an FMI gap
 * that says nothing about theirs (issue #25: weak-text, 30 classes, the models' r about 0.01, the
 * NMI interval held the truth in 38% of rounds). ARI's and FMI's, the counts' own, stay.
 * `uninformed` is that verdict, computed from the stages unless the caller already has it.
 */
export function pairCountIntervals(
  report: IntervalReport,
  estimate: Record<string, MetricValues>,
  clusterings: readonly TestClustering[],
  stages: readonly PairStage[],
  uninformed = drawingModelsInformative(stages) !== true,
): IntervalReport {
  const interval = Object.fromEntries(
    clusterings.map((c) => {
      const counted = pairPpiEstimate(pairCounts(c.assignments, stages), estimate[c.name], report.interval[c.name], report.level).interval;
      return [c.name, uninformed ? withoutFmiShift(counted) : counted];
    }),
  );
  return { ...report, interval };
}
