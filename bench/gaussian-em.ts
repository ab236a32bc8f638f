/**
 * What a surrogate of the right family reads (issue #23): the fixed weak set (bench/weak-set.ts) is made of
 * Gaussian classes with one shared isotropic variance, so a semi-supervised mixture of such Gaussians, fitted
 * by EM on every row with the labeled rows' classes held fixed, is the generator's own model. Per bundle,
 * seed and label count n it draws n rows uniformly, and prints the mean |NMI error| of the labels' own table
 * (the plug-in estimate: Random's) and of the mixture's soft table (the expected table of its posteriors over
 * every row), its bias, and the mixture's accuracy on every row. A diagnostic, not a surrogate of the app: on
 * real embeddings (digits, the demo) the family is wrong and the soft table reads far off.
 *   node --import tsx bench/gaussian-em.ts [--seeds 20] [--labels 100,300,1000] DIR[:CLUSTERING] ...
 */
import { parseArgs } from "node:util";
import { loadBundle, type Bundle } from "@/lib/data/bundle";
import { nmiFromTable } from "@/lib/metrics";
import { Random } from "@/lib/random/named-streams";

const { values, positionals } = parseArgs({
  options: { seeds: { type: "string", default: "20" }, labels: { type: "string", default: "100,300,1000" } },
  allowPositionals: true,
});
if (positionals.length === 0) {
  process.stderr.write("usage: node --import tsx bench/gaussian-em.ts [--seeds 20] [--labels 100,300,1000] DIR[:CLUSTERING] ...\n");
  process.exit(2);
}
const EM_ITERATIONS = 100;

/** classes x clusters table of per-row class weights (n x C, row-major) */
function tableOf(weights: Float64Array, clusters: Int32Array, classes: number, k: number): number[][] {
  const t = Array.from({ length: classes }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < clusters.length; i++) for (let c = 0; c < classes; c++) t[c][clusters[i]] += weights[i * classes + c];
  return t;
}

/** posteriors (N x C) of a mixture of isotropic Gaussians sharing one variance, fitted by EM with the labeled rows clamped */
function semiSupervisedEm(b: Bundle, rows: Int32Array, labels: Int32Array): Float64Array {
  const { n, d, embeddings: x, numClasses: C } = b;
  const clamped = new Int32Array(n).fill(-1);
  rows.forEach((row, j) => (clamped[row] = labels[j]));
  const r = new Float64Array(n * C);
  // start: the labeled rows' class means (the grand mean for a class not drawn), the pooled within-class variance
  for (let i = 0; i < n; i++) for (let c = 0; c < C; c++) r[i * C + c] = clamped[i] < 0 ? 0 : clamped[i] === c ? 1 : 0;
  const mu = new Float64Array(C * d);
  const prior = new Float64Array(C).fill(1 / C);
  let variance = 1;
  const mStep = (weightsOf: (i: number) => boolean) => {
    const mass = new Float64Array(C);
    mu.fill(0);
    for (let i = 0; i < n; i++) {
      if (!weightsOf(i)) continue;
      for (let c = 0; c < C; c++) {
        const w = r[i * C + c];
        if (w === 0) continue;
        mass[c] += w;
        for (let f = 0; f < d; f++) mu[c * d + f] += w * x[i * d + f];
      }
    }
    let total = 0;
    for (let c = 0; c < C; c++) total += mass[c];
    const grand = new Float64Array(d);
    for (let i = 0; i < n; i++) for (let f = 0; f < d; f++) grand[f] += x[i * d + f] / n;
    for (let c = 0; c < C; c++) {
      for (let f = 0; f < d; f++) mu[c * d + f] = mass[c] > 0 ? mu[c * d + f] / mass[c] : grand[f];
      prior[c] = Math.max(mass[c] / total, 1e-6);
    }
    let sq = 0;
    for (let i = 0; i < n; i++) {
      if (!weightsOf(i)) continue;
      for (let c = 0; c < C; c++) {
        const w = r[i * C + c];
        if (w === 0) continue;
        let dist = 0;
        for (let f = 0; f < d; f++) dist += (x[i * d + f] - mu[c * d + f]) ** 2;
        sq += w * dist;
      }
    }
    variance = sq / (total * d);
  };
  mStep((i) => clamped[i] >= 0);
  prior.fill(1 / C);
  const logp = new Float64Array(C);
  for (let it = 0; it < EM_ITERATIONS; it++) {
    for (let i = 0; i < n; i++) {
      if (clamped[i] >= 0) continue;
      let max = -Infinity;
      for (let c = 0; c < C; c++) {
        let dist = 0;
        for (let f = 0; f < d; f++) dist += (x[i * d + f] - mu[c * d + f]) ** 2;
        logp[c] = Math.log(prior[c]) - dist / (2 * variance);
        max = Math.max(max, logp[c]);
      }
      let sum = 0;
      for (let c = 0; c < C; c++) sum += (r[i * C + c] = Math.exp(logp[c] - max));
      for (let c = 0; c < C; c++) r[i * C + c] /= sum;
    }
    mStep(() => true);
  }
  return r;
}

const labelCounts = values.labels!.split(",").map(Number);
console.log("| bundle | clustering | labels | runs | plug-in \\|NMI error\\| (Random's) | mixture's soft table \\|NMI error\\| | its bias | ratio | mixture's accuracy |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const spec of positionals) {
  const [dir, name] = spec.split(":");
  const b = await loadBundle(dir);
  if (!b.labels) throw new Error(`${dir} has no reference labels`);
  const truthLabels = b.labels;
  const clustering = name ? b.clusterings.find((c) => c.name === name) : b.clusterings[0];
  if (!clustering) throw new Error(`${dir} has no clustering ${name}: one of ${b.clusterings.map((c) => c.name).join(", ")}`);
  const C = b.numClasses;
  const oneHot = new Float64Array(b.n * C);
  truthLabels.forEach((c, i) => (oneHot[i * C + c] = 1));
  const truth = nmiFromTable(tableOf(oneHot, clustering.assignments, C, clustering.k));
  for (const nLabels of labelCounts) {
    const plug: number[] = [];
    const soft: number[] = [];
    const accuracy: number[] = [];
    for (let seed = 0; seed < Number(values.seeds); seed++) {
      const random = Random.from(seed, "gaussian-em");
      const order = Int32Array.from({ length: b.n }, (_, i) => i);
      for (let i = b.n - 1; i > 0; i--) {
        const j = random.int(i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      const rows = order.slice(0, nLabels);
      const labels = Int32Array.from(rows, (row) => truthLabels[row]);
      const drawn = new Float64Array(nLabels * C);
      labels.forEach((c, j) => (drawn[j * C + c] = 1));
      plug.push(nmiFromTable(tableOf(drawn, Int32Array.from(rows, (row) => clustering.assignments[row]), C, clustering.k)) - truth);
      const posterior = semiSupervisedEm(b, rows, labels);
      soft.push(nmiFromTable(tableOf(posterior, clustering.assignments, C, clustering.k)) - truth);
      let right = 0;
      for (let i = 0; i < b.n; i++) {
        let best = 0;
        for (let c = 1; c < C; c++) if (posterior[i * C + c] > posterior[i * C + best]) best = c;
        if (best === truthLabels[i]) right++;
      }
      accuracy.push(right / b.n);
    }
    const mean = (xs: number[]) => xs.reduce((a, v) => a + v, 0) / xs.length;
    const mae = (xs: number[]) => mean(xs.map(Math.abs));
    console.log(
      `| ${b.manifest.name ?? dir} | ${clustering.name} | ${nLabels} | ${plug.length} | ${mae(plug).toFixed(4)} | ${mae(soft).toFixed(4)} | ${mean(soft) >= 0 ? "+" : ""}${mean(soft).toFixed(4)} | ${(mae(soft) / mae(plug)).toFixed(2)}x | ${mean(accuracy).toFixed(3)} |`,
    );
  }
}
