/**
 * Which pairwise surrogate (issue 10): the MCL-trained network's argmax cluster ids against the
 * reference labels (NMI), from uniform random pairs answered by labels.npy, for the model shapes
 * and batch compositions models/ chose between. K' = 2 x classes, 600 steps (the default cap).
 *
 *   node --import tsx bench/mcl.ts [--bundle data/digits] [--pairs 2000,5000] [--seed 0]
 *
 * Prints one line per (pairs, configuration): steps, final loss, NMI, ids used, seconds.
 */
import { pseudoLabel } from "@/lib/cereal/method/estimators";
import { drawUniformPairs } from "@/lib/cereal/pairwise/pair-designs";
import { defaultNumOutputs } from "@/lib/cereal/pairwise/pair-surrogate";
import { Random } from "@/lib/random/named-streams";
import { loadBundle } from "@/lib/data/bundle";
import { contingency, metricsFromTable } from "@/lib/metrics";
import { MclSurrogate, type PairwiseSurrogateConfig } from "@/models/mcl-surrogate";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const CONFIGS: [string, PairwiseSurrogateConfig][] = [
  ["mlp 1x128, natural share (default)", {}],
  ["mlp 1x128, balanced 0.5", { mcl: { positiveShare: 0.5 } }],
  ["mlp 1x128, share 0.25", { mcl: { positiveShare: 0.25 } }],
  ["mlp 2x128, natural share", { hidden: [128, 128] }],
  ["mlp 4x128, natural share", { hidden: [128, 128, 128, 128] }],
  ["mlp 4x128, balanced 0.5", { hidden: [128, 128, 128, 128], mcl: { positiveShare: 0.5 } }],
  ["linear, natural share", { model: "linear" }],
  ["linear, balanced 0.5", { model: "linear", mcl: { positiveShare: 0.5 } }],
];

const bundle = await loadBundle(arg("bundle", "data/digits"));
if (!bundle.labels) throw new Error("the bundle has no labels.npy");
const labels = bundle.labels;
const embeddings = { data: bundle.embeddings, n: bundle.n, d: bundle.d };
const all = Int32Array.from({ length: bundle.n }, (_, i) => i);
const k = defaultNumOutputs(bundle.numClasses);
const seed = Number(arg("seed", "0"));
for (const count of arg("pairs", "2000,5000").split(",").map(Number)) {
  const draws = drawUniformPairs(bundle.n, count, Random.from(seed, "bench-pairs"));
  const pairs = {
    a: Int32Array.from(draws, (d) => d.row),
    b: Int32Array.from(draws, (d) => d.rowB),
    same: Uint8Array.from(draws, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0)),
  };
  for (const [name, config] of CONFIGS) {
    const surrogate = await MclSurrogate.create(embeddings, k, config);
    const started = performance.now();
    const report = await surrogate.fit(pairs, { seed: 1 });
    const ids = pseudoLabel(await surrogate.predictProba(all), k);
    const nmi = metricsFromTable(contingency(labels, ids)).nmi;
    const seconds = (performance.now() - started) / 1000;
    console.log(`${count} pairs | ${name.padEnd(36)} | steps ${report.steps} loss ${report.finalLoss?.toFixed(3)} | NMI ${nmi.toFixed(3)} | ids ${new Set(ids).size} | ${seconds.toFixed(1)} s`);
    surrogate.dispose();
  }
}
