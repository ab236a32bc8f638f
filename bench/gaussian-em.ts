/**
 * What a surrogate of the right family reads (issue #23): the fixed weak set (bench/weak-set.ts) is made of
 * Gaussian classes with one shared isotropic variance, so a semi-supervised mixture of such Gaussians, fitted
 * by EM on every row with the labeled rows' classes held fixed, is the generator's own model. Per bundle,
 * seed and label count n it draws n rows uniformly, and prints the mean |NMI error| of the labels' own table
 * (the plug-in estimate: Random's) and of the mixture's soft table (the expected table of its posteriors over
 * the unlabeled rows plus the labels), its bias, and the mixture's accuracy on every row. The mixture is models/gaussian-mixture.ts, the
 * surrogate `--surrogate select` chooses when it predicts better; on real embeddings (digits, the demo) the
 * family is wrong and its soft table reads far off.
 *   node --import tsx bench/gaussian-em.ts [--seeds 20] [--labels 100,300,1000] DIR[:CLUSTERING] ...
 */
import { parseArgs } from "node:util";
import { loadBundle, type Bundle } from "@/lib/data/bundle";
import { nmiFromTable } from "@/lib/metrics";
import { Random } from "@/lib/random/named-streams";
import { fitIsotropicMixture, mixturePosteriors } from "@/models/gaussian-mixture";

const { values, positionals } = parseArgs({
  options: { seeds: { type: "string", default: "20" }, labels: { type: "string", default: "100,300,1000" } },
  allowPositionals: true,
});
if (positionals.length === 0) {
  process.stderr.write("usage: node --import tsx bench/gaussian-em.ts [--seeds 20] [--labels 100,300,1000] DIR[:CLUSTERING] ...\n");
  process.exit(2);
}
/** classes x clusters table of per-row class weights (n x C, row-major) */
function tableOf(weights: ArrayLike<number>, clusters: Int32Array, classes: number, k: number): number[][] {
  const t = Array.from({ length: classes }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < clusters.length; i++) for (let c = 0; c < classes; c++) t[c][clusters[i]] += weights[i * classes + c];
  return t;
}

/** posteriors (N x C) of the semi-supervised mixture fitted on every row with the drawn rows clamped (models/gaussian-mixture.ts) */
function semiSupervisedEm(b: Bundle, rows: Int32Array, labels: Int32Array): Float32Array {
  const embeddings = { data: b.embeddings, n: b.n, d: b.d };
  const all = Int32Array.from({ length: b.n }, (_, i) => i);
  const { parameters } = fitIsotropicMixture(embeddings, b.numClasses, { rows, labels }, all);
  const posterior = mixturePosteriors(embeddings, parameters, all);
  // the labeled rows count with their labels, as in the app's soft table
  rows.forEach((row, j) => posterior.fill(0, row * b.numClasses, (row + 1) * b.numClasses).fill(1, row * b.numClasses + labels[j], row * b.numClasses + labels[j] + 1));
  return posterior;
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
