/**
 * Prediction-powered contingency tables (Angelopoulos et al. 2023, "Prediction-powered
 * inference"; power tuning: Angelopoulos, Duchi & Zrnic 2023, "PPI++"). The population table
 * T = sum_{all i} onehot(y_i) (outer) onehot(c_i) is estimated without trusting the surrogate:
 * its pseudo table is corrected by the labels, with out-of-sample predictions and
 * inverse inclusion weights.
 *
 * Per batch s (drawn in round s from the pool U_{s-1}, with inclusion probabilities q_i), with
 * pi_i the prediction of round s-1's model (out-of-sample.ts) and lambda in [0, 1]:
 *   T_s = K_s + lambda P_s + sum_{i in batch s} (1/q_i) (y_i - lambda pi_i) (outer) c_i       (1)
 * where K_s counts the rows labeled before round s exactly and P_s = sum_{U_{s-1}} pi (outer) c.
 * E[T_s | past] = T for any lambda fixed given the past (Horvitz-Thompson, weights.ts). lambda = 0
 * is the labels-only HT estimate, lambda = 1 plain PPI. The seed batch has pi = 0 (no model).
 * Power tuning picks lambda_s minimising the trace of (1)'s estimated variance,
 *   lambda* = S_uv / S_vv,  u_i = y_i (outer) c_i / q_i,  v_i = pi_i (outer) c_i / q_i          (2)
 * with S the Hansen-Hurwitz (with-replacement) covariance sums, clipped to [0, 1] (PPI++ eq. 7
 * without its (1 + n/N) factor: the pseudo table is over the whole finite pool, so it has no
 * sampling variance of its own). Or one lambda per cluster for every batch (eq. 2', tunedLambdaPerCluster below: the
 * columns' Hansen-Hurwitz sums pooled over the batches with their weights a_s squared), for a pi that reads some clusters well
 * and others poorly (the weights a_s below still from each batch's own lambda_s). The batches are combined by inverse *predicted* variance,
 *   T^ = sum_s a_s T_s,  a_s proportional to 1 / V_s,
 *   V_s = sum_{i in U_{s-1}} (1/q_i - 1) E||y_i - lambda pi_i||^2
 *       = A_s - (2 lambda - lambda^2) B_s,  A_s = sum (1/q_i - 1),  B_s = sum (1/q_i - 1) |pi_i|^2   (3)
 * (hard pseudo table, pi replaced by onehot(argmax): A_s - 2 lambda sum (1/q_i - 1) max pi_i + lambda^2 A_s)
 * the Horvitz-Thompson variance of (1) if pi is calibrated (E[y] = pi; calibration.ts). A_s and
 * B_s are fixed before batch s is drawn, so the combination stays unbiased. Weights estimated
 * from each batch's own residuals (the textbook fixed-effect combination) are not: a batch that
 * by chance holds few mistakes gets a small variance, a large weight and a small correction; on a
 * 10 x 10 synthetic case that pulled the mean table's diagonal 2% down and NMI from 0.631 to 0.609
 * (ppi.test.ts keeps the predicted weights within tolerance of the truth). lambda_s is still
 * tuned on its own batch, as PPI++ does (measured: no visible bias). Top-score batches are not
 * probability samples: they enter later K_s as exact counts but give no T_s of their own.
 *
 * Columns post-stratified to the cluster sizes (default). The pool's cluster sizes are known, so
 * each column of the combined table T^ is rescaled to its cluster's size N_c:
 *   T^[., c] <- T^[., c] N_c / sum_y T^[y, c]                                                       (4)
 * The correction of (1) sums over a column to (1 - lambda) sum_{batch, c_i = c} 1/q_i, a noisy count,
 * so with a diffuse pi (a kNN surrogate) and lambda well below 1 the columns of plain HT carry how
 * many rows each batch happened to draw in their cluster: after projection, NMI about 0.016 low
 * and 90% intervals covering the truth in 15% of rounds on digits. (4) removes that noise and, since
 * every stage's table covers only its own pool, the rows a skip or an unsure answer left out of
 * every later pool (ESTIMATORS.md, "Non-response"). It is a ratio over all the labeled rows of the
 * cluster, so its O(1/n) bias is that of the whole labeled set: the former per-stage ratio
 * (`perCluster: "stage-ratio"`, eq. 1': each stage's correction in cluster c scaled by M_c / m_c,
 * m_c = sum_{batch, c_i = c} 1/q_i) had the same aim per stage, and with stages of 6-20 rows its
 * O(1/n_c) bias read a cell 2.8% low (z = -10.6; a cluster no row of the stage fell in lost its
 * correction), where (4) stays within Monte-Carlo error (stage-unbiased.test.ts).
 *
 * Negative cells. (1) can go below 0 in a cell where the pseudo table says little and the labels
 * disagree with it. The metrics need a table of masses (log p), so T^ is projected: negative cells
 * become 0, which moves every such cell closer to its true value (the truth is >= 0), and the table
 * is rescaled to the known total N (plug-in pair counts for ARI/FMI: T^ estimates a count table).
 *
 * Bootstrap draws (intervals.ts) give multiplicities to the labeled rows. Here they resample the
 * correction terms only, rescaled within each batch to the batch's size (a stratified bootstrap:
 * the batch size is fixed by design); K_s and P_s are known given the past, and lambda_s and a_s
 * are recomputed in every draw so their noise is in the interval.
 */
import { asTable, type ContingencyTable } from "@/lib/metrics";
import type { Estimator, EstimatorInput } from "./estimators";
import type { TestClustering } from "./problem";
import { batchesByRound, inverseInclusionWeight } from "./weights";

export interface PpiOptions {
  /** pseudo table from pi (soft) or from onehot(argmax pi) (hard) */
  readonly pseudo: "soft" | "hard";
  /** lambda: power-tuned per batch (eq. 2), per cluster over the batches (eq. 2'), or fixed */
  readonly lambda: "tuned" | "tuned-per-cluster" | number;
  /** batch weights a_s: inverse predicted variance (eq. 3) or proportional to the batch size */
  readonly combine?: "predicted" | "size";
  /** the combined table's columns rescaled to the known cluster sizes (eq. 4, default), each stage's correction per cluster as a ratio to the cluster's pool size (eq. 1'), or plain Horvitz-Thompson (eq. 1) */
  readonly perCluster?: "post-stratified" | "stage-ratio" | "ht";
}

/** Per-batch sufficient statistics of (1)-(2), over the C x K cells. */
interface BatchStats {
  /** exact counts of rows labeled before the batch */
  readonly known: Float64Array;
  readonly pseudo: Float64Array | null;
  /** U = sum w u_i, V = sum w v_i */
  readonly sumU: Float64Array;
  readonly sumV: Float64Array;
  /** sum w |u_i|^2, sum w |v_i|^2, sum w <u_i, v_i>, and sum w (the batch size) */
  readonly uu: number;
  readonly vv: number;
  readonly uv: number;
  readonly size: number;
  /** per cluster c, the sums of w^2 <u_i, v_i> and w^2 |v_i|^2 over the batch's rows in c (eq. 2') */
  readonly uvIn: Float64Array;
  readonly vvIn: Float64Array;
}

function argmaxOf(p: Float32Array): number {
  let best = 0;
  for (let y = 1; y < p.length; y++) if (p[y] > p[best]) best = y;
  return best;
}

/**
 * The Hansen-Hurwitz covariance sums of eq. (2) times n (n - 1), n = the batch's size: n (n - 1) S_uv and n (n - 1) S_vv over the
 * whole table, or, with a cluster c, over column c's cells and the batch's rows in c (eq. 2')
 */
function centredSums(s: BatchStats, K: number, c?: number): { uv: number; vv: number } {
  let UV = 0;
  let VV = 0;
  const [first, step] = c === undefined ? [0, 1] : [c, K];
  for (let j = first; j < s.sumU.length; j += step) {
    UV += s.sumU[j] * s.sumV[j];
    VV += s.sumV[j] * s.sumV[j];
  }
  const n = s.size;
  return c === undefined ? { uv: n * s.uv - UV, vv: n * s.vv - VV } : { uv: n * s.uvIn[c] - UV, vv: n * s.vvIn[c] - VV };
}

/** lambda* of eq. (2), clipped to [0, 1]; 0 when the batch has no predictions (the seed) */
function tunedLambda(s: BatchStats, K: number): number {
  const { uv, vv } = centredSums(s, K);
  if (!(vv > 0)) return s.vv > 0 ? 1 : 0;
  return Math.min(1, Math.max(0, uv / vv));
}

/**
 * eq. (2'), lambda per cluster: column c of the combined table is sum_s a_s T_s[., c] / sum_s a_s, whose variance in a common
 * lambda_c is sum_s a_s^2 (S_uu - 2 lambda_c S_uv + lambda_c^2 S_vv) over the batch's rows in c (Hansen-Hurwitz, as eq. 2), so
 *   lambda_c = sum_s a_s^2 S_uv,s^c / sum_s a_s^2 S_vv,s^c,  clipped to [0, 1]
 * (the batches' lambda_s gave their weights a_s). A cluster where pi reads the labels well keeps lambda_c near 1 while one
 * where it reads them poorly falls towards the labels alone, which one lambda per batch averages over.
 */
function tunedLambdaPerCluster(parts: readonly { stats: BatchStats; a: number }[], K: number): Float64Array {
  const lambdas = new Float64Array(K);
  for (let c = 0; c < K; c++) {
    let numerator = 0;
    let denominator = 0;
    let anyPi = false;
    for (const { stats: s, a } of parts) {
      const n = s.size;
      if (s.vvIn[c] > 0) anyPi = true;
      if (n < 2) continue;
      const { uv, vv } = centredSums(s, K, c);
      numerator += (a * a * uv) / (n - 1);
      denominator += (a * a * vv) / (n - 1);
    }
    lambdas[c] = denominator > 0 ? Math.min(1, Math.max(0, numerator / denominator)) : anyPi ? 1 : 0;
  }
  return lambdas;
}

const sizes = new WeakMap<Int32Array, Float64Array>();
/** Items per cluster, counted once per assignments array: an interval draw would otherwise count all N items per clustering. */
function clusterSizes(clustering: TestClustering): Float64Array {
  let counts = sizes.get(clustering.assignments);
  if (!counts || counts.length !== clustering.k) {
    counts = new Float64Array(clustering.k);
    for (let i = 0; i < clustering.assignments.length; i++) counts[clustering.assignments[i]]++;
    sizes.set(clustering.assignments, counts);
  }
  return counts;
}

/** The prediction-powered table of one clustering (eqs. 1-3), projected onto valid tables. */
export function ppiTable(input: EstimatorInput, clustering: TestClustering, options: PpiOptions): ContingencyTable {
  return projectTable(ppiCells(input, clustering, options), input.numClasses, clustering.k, input.n);
}

/** The combination of eqs. 1-3 before the projection, C x K row-major: the cells whose mean is the truth
 * (exactly with a fixed lambda, the Horvitz-Thompson correction and size weights; stage-unbiased.test.ts). */
export function ppiCells(input: EstimatorInput, clustering: TestClustering, options: PpiOptions): Float64Array {
  const C = input.numClasses;
  const K = clustering.k;
  const cells = C * K;
  const { rows, labels } = input.labeled;
  const record = input.outOfSample;
  const known = new Float64Array(cells);
  const combined = new Float64Array(cells);
  const clusterSize = clusterSizes(clustering);
  // the probability batches, each with its T_s's parts, its lambda_s and its weight a_s; combined once every lambda is known
  const parts: { stats: BatchStats; lambda: number; a: number; scale: Float64Array }[] = [];

  for (const { round, positions } of batchesByRound(input.draws)) {
    const evidence = record?.batches.get(round) ?? null;
    const weights = positions.map((p) => inverseInclusionWeight(input.draws[p]));
    const mult = positions.map((p) => (input.multiplicity ? input.multiplicity[p] : 1));
    const drawn = mult.reduce((a, b) => a + b, 0);
    // a batch a resample or a jackknife group left empty says nothing about its pool
    const probability = weights.every((w) => w !== null) && drawn > 0;
    if (probability) {
      const sumU = new Float64Array(cells);
      const sumV = new Float64Array(cells);
      const uvIn = new Float64Array(K);
      const vvIn = new Float64Array(K);
      let uu = 0;
      let vv = 0;
      let uv = 0;
      // the seed batch (no model, pi = 0): V_0 = A_0 = sum_pool (1/q - 1) with the pool total of 1/q = |pool|
      const seedPool = weights.reduce<number>((a, w) => a + (w ?? 0), 0);
      const residual = evidence?.residual ?? { a: Math.max(0, seedPool * (seedPool / positions.length - 1)), b: 0, bMax: 0 };
      for (let j = 0; j < positions.length; j++) {
        if (mult[j] === 0) continue;
        const p = positions[j];
        // stratified bootstrap: multiplicities rescaled so the batch keeps its size
        const f = (mult[j] * positions.length) / drawn;
        const w = weights[j]!;
        const row = rows[p];
        const y = labels[p];
        const c = clustering.assignments[row];
        const prediction = evidence ? record!.predictions.get(row) : undefined;
        sumU[y * K + c] += f * w;
        uu += f * w * w;
        if (prediction) {
          const pi = options.pseudo === "soft" ? prediction.calibrated : null;
          const hard = pi ? -1 : argmaxOf(prediction.calibrated);
          let norm = 0;
          for (let k = 0; k < C; k++) {
            const value = pi ? pi[k] : k === hard ? 1 : 0;
            if (value === 0) continue;
            sumV[k * K + c] += f * w * value;
            norm += value * value;
          }
          const agreement = pi ? pi[y] : hard === y ? 1 : 0;
          vv += f * w * w * norm;
          uv += f * w * w * agreement;
          vvIn[c] += f * w * w * norm;
          uvIn[c] += f * w * w * agreement;
        }
      }
      const stats: BatchStats = {
        known: known.slice(),
        pseudo: evidence ? (options.pseudo === "soft" ? evidence.softPseudo[clustering.name] : evidence.hardPseudo[clustering.name]) ?? null : null,
        sumU,
        sumV,
        uu,
        vv,
        uv,
        size: positions.length,
        uvIn,
        vvIn,
      };
      // the batch's own lambda_s: its T_s under "tuned", its predicted variance (the weight a_s) under both tuned forms
      const lambda = typeof options.lambda === "number" ? options.lambda : tunedLambda(stats, K);
      // eq. (1'): each cluster's correction scaled from its HT row count m_c to its pool size M_c
      const scale = new Float64Array(K).fill(1);
      if (options.perCluster === "stage-ratio") {
        const drawnIn = new Float64Array(K);
        for (let j = 0; j < positions.length; j++) {
          if (mult[j] === 0) continue;
          drawnIn[clustering.assignments[rows[positions[j]]]] += ((mult[j] * positions.length) / drawn) * weights[j]!;
        }
        const hardPool = evidence?.hardPseudo[clustering.name];
        for (let c = 0; c < K; c++) {
          let poolSize = 0;
          if (hardPool) for (let y = 0; y < C; y++) poolSize += hardPool[y * K + c];
          else {
            poolSize = clusterSize[c];
            for (let y = 0; y < C; y++) poolSize -= known[y * K + c];
          }
          scale[c] = drawnIn[c] > 0 ? poolSize / drawnIn[c] : 0;
        }
      }
      // a batch with no sampling variance left (it took the whole pool, or pi is one-hot) is
      // exact: a tiny floor keeps its weight finite and dominant
      const variance = Math.max(
        options.pseudo === "soft"
          ? residual.a - (2 * lambda - lambda * lambda) * residual.b
          : residual.a - 2 * lambda * residual.bMax + lambda * lambda * residual.a,
        1e-9,
      );
      parts.push({ stats, lambda, a: options.combine === "size" ? positions.length : 1 / variance, scale });
    }
    // every labeled row of this batch is an exact count for the later batches' K_s
    for (const p of positions) known[labels[p] * K + clustering.assignments[rows[p]]] += 1;
  }

  const perCluster = options.lambda === "tuned-per-cluster" ? tunedLambdaPerCluster(parts, K) : null;
  let weightSum = 0;
  for (const { stats, lambda: batchLambda, a, scale } of parts) {
    for (let j = 0; j < cells; j++) {
      const lambda = perCluster ? perCluster[j % K] : batchLambda;
      const t = stats.known[j] + (stats.pseudo ? lambda * stats.pseudo[j] : 0) + scale[j % K] * (stats.sumU[j] - lambda * stats.sumV[j]);
      combined[j] += a * t;
    }
    weightSum += a;
  }

  // no probability batch at all (e.g. only top-score batches after a non-uniform seed): the labels alone
  if (weightSum === 0) return known;
  const table = combined.map((v) => v / weightSum);
  return (options.perCluster ?? "post-stratified") === "post-stratified" ? columnsToSizes(table, C, clusterSize) : table;
}

/** eq. (4): each column rescaled to its cluster's known size (a column with no mass stays empty) */
function columnsToSizes(cells: Float64Array, C: number, clusterSize: Float64Array): Float64Array {
  const K = clusterSize.length;
  for (let c = 0; c < K; c++) {
    let sum = 0;
    for (let y = 0; y < C; y++) sum += cells[y * K + c];
    if (sum > 0) for (let y = 0; y < C; y++) cells[y * K + c] *= clusterSize[c] / sum;
  }
  return cells;
}

/** negative cells to 0, then rescaled to the known total (the projection documented above) */
export function projectTable(cellsIn: Float64Array, rowsCount: number, cols: number, total: number): ContingencyTable {
  const matrix: number[][] = [];
  let sum = 0;
  for (let r = 0; r < rowsCount; r++) {
    const row = new Array<number>(cols);
    for (let c = 0; c < cols; c++) {
      const v = Math.max(0, cellsIn[r * cols + c]);
      row[c] = v;
      sum += v;
    }
    matrix.push(row);
  }
  const scale = sum > 0 ? total / sum : 0;
  return asTable(matrix.map((row) => row.map((v) => v * scale)));
}

export function ppiEstimator(name: string, options: PpiOptions): Estimator {
  return {
    name,
    usesSurrogate: true,
    table: (input, clustering) => ppiTable(input, clustering, options),
  };
}

/** soft pseudo table, power-tuned lambda: the recommended prediction-powered estimator */
export const ppiSoftEstimator = ppiEstimator("ppi", { pseudo: "soft", lambda: "tuned" });
/** soft pseudo table, lambda power-tuned per cluster over the batches (eq. 2') */
export const ppiPerClusterEstimator = ppiEstimator("ppi-per-cluster", { pseudo: "soft", lambda: "tuned-per-cluster" });
export const ppiHardEstimator = ppiEstimator("ppi-hard", { pseudo: "hard", lambda: "tuned" });
/** plain PPI (lambda = 1), for the comparison in the estimators grid */
export const ppiUntunedEstimator = ppiEstimator("ppi-untuned", { pseudo: "soft", lambda: 1 });
export const ppiSizeWeightedEstimator = ppiEstimator("ppi-size", { pseudo: "soft", lambda: "tuned", combine: "size" });
export const ppiHtEstimator = ppiEstimator("ppi-ht", { pseudo: "soft", lambda: "tuned", perCluster: "ht" });
/** the per-stage ratio of eq. (1'), the default before issue #23: for the comparison in the estimators grid */
export const ppiStageRatioEstimator = ppiEstimator("ppi-stage-ratio", { pseudo: "soft", lambda: "tuned", perCluster: "stage-ratio" });
/** lambda = 0: the labels alone, Horvitz-Thompson weighted and post-stratified (what power tuning shrinks towards) */
export const ppiLabelsEstimator = ppiEstimator("ppi-labels", { pseudo: "soft", lambda: 0 });
