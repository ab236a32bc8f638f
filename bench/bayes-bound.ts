/**
 * What the best possible surrogate could give on the weak set (issue #23): the generator's own posterior
 * pi*(y|x), computed from the bundle's generator (bench/weak-set-specs.ts, lib/cereal/harness/overlap-data.ts),
 * in place of a trained surrogate. Per bundle and number of labels n (uniform draws without replacement, R
 * repetitions), the |NMI error| of
 *   - `labels`: the plug-in NMI of the n labels (Random, the ratios' denominator),
 *   - `labels-ps`: the labels post-stratified to the clusters' sizes (ppi with lambda = 0),
 *   - `ppi-bayes`: the prediction-powered table with pi*: sum over the pool of pi* (outer) c, plus each cluster's size times the
 *     mean residual ([y = .] - pi*) of its labeled rows (lambda = 1, optimal for a calibrated pi), negative cells clipped and
 *     the column rescaled to its size: the design-unbiased estimators' best case, whatever the surrogate,
 *   - `ppi-bayes-active`: the same with n rows drawn with replacement with probability p_i = 0.1 / N + 0.9 sd_i / sum sd,
 *     sd_i = sqrt(1 - sum_y pi*(y|x_i)^2), the residual's standard deviation (acquisition.ts scoreResidual, active inference's design), each cluster's
 *     residual the 1/p-weighted mean of its draws (Hajek): what the best sampling adds,
 *   - `ppi-bayes-jk`: `ppi-bayes` with the grouped jackknife's small-sample correction (jackknife.ts' groups: the drawn
 *     rows dealt into 20 by draw order): the plug-in of mutual information reads the table's noise as structure (NMI high),
 *   - `ppi-bayes-centred`: `ppi-bayes` with its mean error over the repetitions removed (an oracle: the spread alone, what
 *     a perfect bias correction would leave),
 *   - `soft-bayes`: the labels plus pi* of every unlabeled row (the soft table of a perfectly calibrated surrogate),
 *   - `mean-bayes`: the mean of `soft-bayes`' and `ppi-bayes`' NMI (the default's healthy-round estimate, given pi*),
 * and AEC (the errors summed over n = 50, 100, ..., 1,000, as a simulated run's rounds) as the ratio to Random's. pi*'s
 * confidence minus its accuracy and `soft-bayes`' small error check the posterior: a wrong one would read miscalibrated.
 * Bundles whose posterior the generator gives in closed form: isotropic Gaussian classes (weak-c5, -c40, -imbalanced,
 * -text), per-class diagonal scales (weak-aniso), Student t noise (weak-tails), three modes a class (weak-modes); not
 * weak-warp (its warp has no closed-form inverse).
 * --temperature T replaces pi* by pi*^(1/T), normalised (T > 1 softer, T < 1 sharper): a surrogate right in its ranking but
 * miscalibrated, to read how much miscalibration each estimator bears. --write-posterior OUT writes each bundle's pi* to OUT/NAME.npy (float32 N x C), for `cereal simulate --surrogate fixed --proba
 * OUT/NAME.npy`: the whole recommended loop (design, guard, estimators) with the best possible surrogate.
 *   node --import tsx bench/bayes-bound.ts [--reps 200] [--bundles weak-c5,weak-tails,...] [--dir bench/out/weak] [--temperature 1] [--write-posterior OUT]
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { overlappingClasses } from "@/lib/cereal/harness/overlap-data";
import { loadBundle } from "@/lib/data/bundle";
import { writeNpy } from "@/lib/data/npy";
import { scoreResidual } from "@/lib/cereal/method/acquisition";
import { jackknifeCorrected, JACKKNIFE_GROUPS } from "@/lib/cereal/method/jackknife";
import { clampMetric, contingency, nmiFromTable } from "@/lib/metrics";
import { Random } from "@/lib/random/named-streams";
import { WEAK_N, WEAK_SEED, WEAK_SET } from "./weak-set-specs";

/** the weak set's bundles whose posterior the generator gives in closed form (not weak-warp) */
const GENERATORS = Object.fromEntries(Object.entries(WEAK_SET).filter(([, spec]) => !spec.warp));
const N = WEAK_N;
const SEED = WEAK_SEED;

const { values } = parseArgs({
  options: {
    "write-posterior": { type: "string" },
    reps: { type: "string", default: "200" },
    bundles: { type: "string", default: Object.keys(GENERATORS).join(",") },
    dir: { type: "string", default: "bench/out/weak" },
    temperature: { type: "string", default: "1" },
  },
});
const reps = Number(values.reps);
const temperature = Number(values.temperature);
if (!(temperature > 0)) throw new Error(`--temperature must be a positive number, got '${values.temperature}'`);

/** pi*(.|x) of every row, N x C, from the generator's parameters (overlap-data.ts draws them in this order) */
function posterior(name: string): { pi: Float64Array; labels: Int32Array } {
  const g = GENERATORS[name];
  const { d, classes: C } = g;
  const { embeddings, labels, means } = overlappingClasses({ n: N, seed: SEED, ...g });
  const prior = Float64Array.from({ length: C }, (_, c) => (c + 1) ** -(g.imbalance ?? 0));
  const scaleRandom = Random.from(SEED, "anisotropy");
  const scales = Float64Array.from({ length: C * d }, () => (g.anisotropy ? Math.exp(g.anisotropy * (2 * scaleRandom.next() - 1)) : 1));
  const m = g.modes ?? 1;
  const modeRandom = Random.from(SEED, "modes");
  const centres = m === 1 ? means : Float32Array.from({ length: C * m * d }, (_, at) => means[Math.floor(at / (m * d)) * d + (at % d)] + modeRandom.normal() * g.spread);
  const v = g.tails ?? 0;
  const pi = new Float64Array(N * C);
  const logp = new Float64Array(C);
  const modeLog = new Float64Array(m);
  for (let i = 0; i < N; i++) {
    for (let c = 0; c < C; c++) {
      for (let j = 0; j < m; j++) {
        let q = 0;
        let logDet = 0;
        for (let f = 0; f < d; f++) {
          const s = scales[c * d + f];
          const z = (embeddings[i * d + f] - centres[(c * m + j) * d + f]) / s;
          q += z * z;
          logDet += Math.log(s);
        }
        modeLog[j] = (v > 0 ? (-(v + d) / 2) * Math.log1p(q / v) : -q / 2) - logDet;
      }
      const top = Math.max(...modeLog);
      let sum = 0;
      for (let j = 0; j < m; j++) sum += Math.exp(modeLog[j] - top);
      logp[c] = Math.log(prior[c]) + top + Math.log(sum);
    }
    const top = Math.max(...logp);
    let sum = 0;
    for (let c = 0; c < C; c++) sum += Math.exp((logp[c] - top) / temperature);
    for (let c = 0; c < C; c++) pi[i * C + c] = Math.exp((logp[c] - top) / temperature) / sum;
  }
  return { pi, labels };
}

const BUDGETS = Array.from({ length: 20 }, (_, r) => 50 * (r + 1));
const NAMES = ["labels", "labels-ps", "ppi-bayes", "ppi-bayes-active", "ppi-bayes-jk", "ppi-bayes-centred", "soft-bayes", "mean-bayes"] as const;
type Name = (typeof NAMES)[number];

/** the population's pieces the estimators share: sum over the pool of pi* (outer) c, the clusters' sizes, the truth */
interface Population {
  readonly pi: Float64Array;
  readonly labels: Int32Array;
  readonly clusters: Int32Array;
  readonly C: number;
  readonly K: number;
  readonly base: Float64Array[];
  readonly size: Float64Array;
  readonly truth: number;
}

/** base + each cluster's size times its mean residual (weights: the residual sums' own), clipped at 0 and rescaled to the cluster's size */
function ppiTable(pop: Population, resid: Float64Array[], weight: Float64Array): Float64Array[] {
  const table = pop.base.map((row, y) => row.map((x, c) => Math.max(0, weight[c] > 0 ? x + (pop.size[c] * resid[y][c]) / weight[c] : x)));
  for (let c = 0; c < pop.K; c++) {
    let s = 0;
    for (let y = 0; y < pop.C; y++) s += table[y][c];
    for (let y = 0; y < pop.C; y++) table[y][c] *= s > 0 ? pop.size[c] / s : 0;
  }
  return table;
}

/** adds row i's residual [y_i = .] - pi*(.|x_i), times w, to its cluster's column */
function addResidual(pop: Population, resid: Float64Array[], i: number, w: number): void {
  const c = pop.clusters[i];
  for (let y = 0; y < pop.C; y++) resid[y][c] += w * ((y === pop.labels[i] ? 1 : 0) - pop.pi[i * pop.C + y]);
}

const zeros = (pop: Population) => Array.from({ length: pop.C }, () => new Float64Array(pop.K));

/** draws row indices with probability 0.1 / N + 0.9 sd_i / sum sd (with replacement); returns them with their probabilities */
function activeSampler(pop: Population): { p: Float64Array; draw: (u: number) => number } {
  const n = pop.labels.length;
  const sd = scoreResidual(pop.pi, pop.C);
  const sdSum = sd.reduce((a, x) => a + x, 0);
  const p = Float64Array.from(sd, (x) => 0.1 / n + (0.9 * x) / sdSum);
  const cumulative = new Float64Array(n);
  p.reduce((a, x, i) => (cumulative[i] = a + x), 0);
  const draw = (u: number) => {
    const target = u * cumulative[n - 1];
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { p, draw };
}

/** every estimator's signed NMI error on one uniform draw (`drawn`, in draw order) and one active draw of the same size */
function errorsOf(pop: Population, drawn: Int32Array, active: ReturnType<typeof activeSampler>, random: Random): Record<Exclude<Name, "ppi-bayes-centred">, number> {
  const { C, labels, clusters, pi, truth } = pop;
  const counts = zeros(pop);
  const resid = zeros(pop);
  const labeledPi = zeros(pop);
  const inCluster = new Float64Array(pop.K);
  for (const i of drawn) {
    inCluster[clusters[i]]++;
    counts[labels[i]][clusters[i]]++;
    addResidual(pop, resid, i, 1);
    for (let y = 0; y < C; y++) labeledPi[y][clusters[i]] += pi[i * C + y];
  }
  const poststratified = counts.map((row) => row.map((x, c) => (inCluster[c] > 0 ? (x * pop.size[c]) / inCluster[c] : 0)));
  const ppi = nmiFromTable(ppiTable(pop, resid, inCluster));
  const leftOut: number[] = [];
  const G = Math.min(JACKKNIFE_GROUPS, drawn.length);
  for (let g = 0; g < G; g++) {
    const r = resid.map((row) => Float64Array.from(row));
    const w = Float64Array.from(inCluster);
    for (let at = g; at < drawn.length; at += G) {
      w[clusters[drawn[at]]]--;
      addResidual(pop, r, drawn[at], -1);
    }
    leftOut.push(nmiFromTable(ppiTable(pop, r, w)));
  }
  const jk = clampMetric("nmi", jackknifeCorrected(ppi, leftOut));
  const activeResid = zeros(pop);
  const activeWeight = new Float64Array(pop.K);
  for (let k = 0; k < drawn.length; k++) {
    const i = active.draw(random.next());
    activeWeight[clusters[i]] += 1 / active.p[i];
    addResidual(pop, activeResid, i, 1 / active.p[i]);
  }
  const soft = nmiFromTable(pop.base.map((row, y) => row.map((x, c) => x - labeledPi[y][c] + counts[y][c])));
  return {
    labels: nmiFromTable(counts) - truth,
    "labels-ps": nmiFromTable(poststratified) - truth,
    "ppi-bayes": ppi - truth,
    "ppi-bayes-active": nmiFromTable(ppiTable(pop, activeResid, activeWeight)) - truth,
    "ppi-bayes-jk": jk - truth,
    "soft-bayes": soft - truth,
    "mean-bayes": (soft + ppi) / 2 - truth,
  };
}

/** the pool's pieces for one bundle, checked against its files */
async function population(name: string): Promise<Population> {
  const bundle = await loadBundle(path.join(values.dir, name));
  const { pi, labels } = posterior(name);
  if (bundle.labels!.some((y, i) => y !== labels[i])) throw new Error(`${name}: the regenerated labels differ from ${values.dir}/${name}'s: rebuild it with bench/weak-set.ts`);
  const { assignments: clusters, k: K } = bundle.clusterings[0];
  const C = bundle.numClasses;
  const base = Array.from({ length: C }, () => new Float64Array(K));
  const size = new Float64Array(K);
  for (let i = 0; i < N; i++) {
    size[clusters[i]]++;
    for (let y = 0; y < C; y++) base[y][clusters[i]] += pi[i * C + y];
  }
  return { pi, labels, clusters, C, K, base, size, truth: nmiFromTable(contingency(labels, clusters)) };
}

/** pi*'s accuracy and its mean confidence minus it */
function calibration(pop: Population): { accuracy: number; overconfidence: number } {
  let correct = 0;
  let confidence = 0;
  for (let i = 0; i < N; i++) {
    let top = 0;
    for (let y = 1; y < pop.C; y++) if (pop.pi[i * pop.C + y] > pop.pi[i * pop.C + top]) top = y;
    if (top === pop.labels[i]) correct++;
    confidence += pop.pi[i * pop.C + top];
  }
  return { accuracy: correct / N, overconfidence: (confidence - correct) / N };
}

process.stdout.write(`| bundle | pi* accuracy | its confidence minus accuracy | true NMI | ${NAMES.map((e) => `${e} AEC (ratio)`).join(" | ")} | ppi-bayes \\|error\\| (mean error) at 200 / 500 / 1,000 |\n|${"---|".repeat(NAMES.length + 5)}\n`);
for (const name of values.bundles.split(",")) {
  if (!GENERATORS[name]) throw new Error(`${name}: no closed-form posterior here (one of ${Object.keys(GENERATORS).join(", ")})`);
  const pop = await population(name);
  if (values["write-posterior"]) {
    await mkdir(values["write-posterior"], { recursive: true });
    await writeNpy(path.join(values["write-posterior"], `${name}.npy`), Float32Array.from(pop.pi), [N, pop.C]);
  }
  const active = activeSampler(pop);
  const random = Random.from(SEED, "bayes-bound", name);
  const errors = Object.fromEntries(NAMES.map((e) => [e, BUDGETS.map(() => new Float64Array(reps))])) as Record<Name, Float64Array[]>;
  const order = Int32Array.from({ length: N }, (_, i) => i);
  for (let rep = 0; rep < reps; rep++) {
    random.shuffle(order);
    BUDGETS.forEach((n, b) => {
      for (const [e, error] of Object.entries(errorsOf(pop, order.subarray(0, n), active, random))) errors[e as Name][b][rep] = error;
    });
  }
  const meanError = BUDGETS.map((_, b) => errors["ppi-bayes"][b].reduce((a, x) => a + x, 0) / reps);
  BUDGETS.forEach((_, b) => errors["ppi-bayes"][b].forEach((e, rep) => (errors["ppi-bayes-centred"][b][rep] = e - meanError[b])));
  const meanAbs = (e: Name, b: number) => errors[e][b].reduce((a, x) => a + Math.abs(x), 0) / reps;
  const aec = (e: Name) => BUDGETS.reduce((a, _, b) => a + meanAbs(e, b), 0);
  const at = (n: number) => {
    const b = BUDGETS.indexOf(n);
    return `${meanAbs("ppi-bayes", b).toFixed(4)} (${meanError[b] >= 0 ? "+" : ""}${meanError[b].toFixed(4)})`;
  };
  const { accuracy, overconfidence } = calibration(pop);
  process.stdout.write(
    `| ${name} | ${accuracy.toFixed(3)} | ${overconfidence.toFixed(3)} | ${pop.truth.toFixed(3)} | ${NAMES.map((e) => `${aec(e).toFixed(3)} (${(aec(e) / aec("labels")).toFixed(2)}x)`).join(" | ")} | ${at(200)} / ${at(500)} / ${at(1000)} |\n`,
  );
}
