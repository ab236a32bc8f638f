/**
 * Where does a prediction-powered table's NMI bias come from (issue #23, weak-imbalanced)? A
 * surrogate of known pi drives the simulator, so many seeds cost seconds: pi is the posterior of
 * isotropic Gaussian classes around the bundle's class means (priors = class sizes), its logits
 * multiplied by --sharpen (> 1: overconfident, its mistakes following the embedding geometry as
 * FixMatch's do). Hard NMI drawn proportionally, as recommended. Per round it prints each
 * estimator's mean NMI error over the seeds (± se), and for `ppi` two diagnostics of the
 * combined table before its projection (lambda tuned, or fixed by --lambda): the NMI of the seeds' mean table (the cells are unbiased
 * when this is the truth) and the mass the projection clipped. With --drift X every fit is a new
 * model, as FixMatch's rounds are: its class means shifted by X within-class standard deviations
 * (a fresh Gaussian per round and class) and its sharpening drawn from [0.5, 1.5] x --sharpen.
 *
 *   node --import tsx bench/ppi-bias.ts --bundle bench/out/weak/weak-imbalanced --clustering kmeans_k10 --seeds 0-19 --budget 1000
 */
import { parseArgs } from "node:util";
import { contingency, denseTable, metricsFromTable, type ContingencyTable } from "@/lib/metrics";
import { fixedSurrogateFactory } from "@/lib/cereal/fakes/fixed-surrogate";
import type { SurrogateFactory } from "@/lib/cereal/method/surrogate";
import { Random } from "@/lib/random/named-streams";
import { estimatorByName, type Estimator } from "@/lib/cereal/method/estimators";
import { jackknifeMetrics } from "@/lib/cereal/method/jackknife";
import { ppiCells, projectTable } from "@/lib/cereal/method/ppi";
import { simulate } from "@/lib/cereal/harness/simulate";
import { loadBundle } from "@/lib/data/bundle";
import { mean, se } from "./sample-stats";

const { values } = parseArgs({
  options: {
    bundle: { type: "string" },
    clustering: { type: "string" },
    seeds: { type: "string", default: "0-19" },
    budget: { type: "string", default: "1000" },
    batch: { type: "string", default: "50" },
    sharpen: { type: "string", default: "3" },
    compare: { type: "string", default: "ppi-labels,ppi-untuned,ppi-size,ppi-ht,soft" },
    drift: { type: "string", default: "0" },
    lambda: { type: "string", default: "tuned" },
  },
});
const bundle = await loadBundle(values.bundle!, { clusterings: [values.clustering!] });
const labels = bundle.labels!;
const { n, d, numClasses: C } = bundle;
const clustering = bundle.clusterings[0];
const [from, to] = values.seeds!.split("-").map(Number);
const seeds = Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);

// pi: Gaussian posterior with the pooled within-class variance, logits sharpened (around moved means when drifting)
const means = new Float64Array(C * d);
const counts = new Float64Array(C);
for (let i = 0; i < n; i++) {
  counts[labels[i]]++;
  for (let j = 0; j < d; j++) means[labels[i] * d + j] += bundle.embeddings[i * d + j];
}
for (let y = 0; y < C; y++) for (let j = 0; j < d; j++) means[y * d + j] /= counts[y];
let variance = 0;
for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) variance += (bundle.embeddings[i * d + j] - means[labels[i] * d + j]) ** 2 / (n * d);
const sharpen = Number(values.sharpen);
const drift = Number(values.drift);
function posterior(centres: Float64Array, factor: number): { proba: Float32Array; accuracy: number; confidence: number } {
  const proba = new Float32Array(n * C);
  let right = 0;
  let confidence = 0;
  for (let i = 0; i < n; i++) {
    const logits = Array.from({ length: C }, (_, y) => {
      let dist = 0;
      for (let j = 0; j < d; j++) dist += (bundle.embeddings[i * d + j] - centres[y * d + j]) ** 2;
      return factor * (Math.log(counts[y]) - dist / (2 * variance));
    });
    const top = Math.max(...logits);
    const e = logits.map((l) => Math.exp(l - top));
    const s = e.reduce((a, b) => a + b, 0);
    e.forEach((v, y) => (proba[i * C + y] = v / s));
    right += e.indexOf(Math.max(...e)) === labels[i] ? 1 : 0;
    confidence += Math.max(...e) / s;
  }
  return { proba, accuracy: right / n, confidence: confidence / n };
}
const fixed = posterior(means, sharpen);
/** one model per fit when drifting: moved means, a sharpening drawn around --sharpen */
function driftingFactory(seed: number): SurrogateFactory {
  return async () => {
    const random = new Random(1000 + seed);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
    let current = fixed.proba;
    const rowsOf = (rows: Int32Array) => {
      const out = new Float32Array(rows.length * C);
      rows.forEach((r, i) => out.set(current.subarray(r * C, (r + 1) * C), i * C));
      return out;
    };
    return {
      async fit() {
        const moved = Float64Array.from(means, (m) => m + drift * Math.sqrt(variance) * gauss());
        current = posterior(moved, sharpen * (0.5 + random.next())).proba;
        return { backend: "fake", trainSeconds: 0, steps: 0, maskRate: null, finalLoss: null };
      },
      predictProba: async (rows) => rowsOf(rows),
      predictProbaMc: async (rows, passes) => {
        const one = rowsOf(rows);
        const out = new Float32Array(passes * one.length);
        for (let p = 0; p < passes; p++) out.set(one, p * one.length);
        return out;
      },
      dispose() {},
    };
  };
}
const trueCells = Float64Array.from(denseTable(contingency(labels, clustering.assignments, { rows: C, cols: clustering.k })).flat());
const trueNmi = metricsFromTable(contingency(labels, clustering.assignments)).nmi;
console.log(`${bundle.manifest.name} ${clustering.name}: true NMI ${trueNmi.toFixed(4)}; pi sharpened x${sharpen}: accuracy ${fixed.accuracy.toFixed(3)}, mean confidence ${fixed.confidence.toFixed(3)}${drift > 0 ? `; each round's means moved by ${drift} s.d., sharpening x${sharpen} * [0.5, 1.5]` : ""}`);

// the ppi estimator again, keeping its cells before the projection, by seed and round
const cellsBy = new Map<number, Float64Array[]>();
const clipped = new Map<number, number[]>();
let currentRound = 0;
const recording: Estimator = {
  name: "ppi-cells",
  usesSurrogate: true,
  table: (input, c) => {
    const cells = ppiCells(input, c, { pseudo: "soft", lambda: values.lambda === "tuned" ? "tuned" : Number(values.lambda) });
    if (!input.multiplicity) {
      cellsBy.set(currentRound, [...(cellsBy.get(currentRound) ?? []), cells.slice()]);
      clipped.set(currentRound, [...(clipped.get(currentRound) ?? []), cells.reduce((a, v) => a + Math.max(0, -v), 0) / input.n]);
    }
    return projectTable(cells, input.numClasses, c.k, input.n);
  },
};
const ppiOptions = { pseudo: "soft", lambda: "tuned" } as const;
const simplexEstimators: Estimator[] = [
  { name: "ppi-simplex", usesSurrogate: true, table: (input, c) => columnSimplex(ppiCells(input, c, ppiOptions)) },
  {
    name: "ppi-simplex-jackknife",
    usesSurrogate: true,
    table: (input, c) => columnSimplex(ppiCells(input, c, ppiOptions)),
    metrics: (input, c) => jackknifeMetrics(input, (i) => columnSimplex(ppiCells(i, c, ppiOptions))),
  },
];
const compare = [recording, ...simplexEstimators, ...values.compare!.split(",").filter(Boolean).map(estimatorByName)];
const errors = new Map<string, Map<number, number[]>>();
for (const seed of seeds) {
  const result = await simulate({ embeddings: { data: bundle.embeddings, n, d }, numClasses: C, clusterings: [clustering] }, labels, drift > 0 ? driftingFactory(seed) : fixedSurrogateFactory(fixed.proba), {
    acquisition: "hardnmi",
    design: "proportional",
    estimator: estimatorByName("ppi"),
    compare,
    fixmatch: false,
    seed,
    batch: Number(values.batch),
    budget: Number(values.budget),
    intervals: false,
    timings: false,
    onRound: (r) => (currentRound = r.round + 1),
  });
  for (const r of result.rounds)
    for (const [name, e] of Object.entries(r.byEstimator ?? {})) {
      const byN = errors.get(name) ?? new Map<number, number[]>();
      byN.set(r.nLabels, [...(byN.get(r.nLabels) ?? []), e.estimate[clustering.name].nmi - r.true[clustering.name].nmi]);
      errors.set(name, byN);
    }
  currentRound = 0;
}

/** the alternative projection: each column onto {x >= 0, sum x = N_c} in Euclidean distance (a common shift, then clipping), keeping the known cluster sizes */
function columnSimplex(cells: Float64Array): ContingencyTable {
  const K = clustering.k;
  const out = Float64Array.from(cells);
  for (let c = 0; c < K; c++) {
    const column = Array.from({ length: C }, (_, y) => cells[y * K + c]);
    const size = column.reduce((a, b) => a + b, 0);
    if (!(size > 0)) continue;
    const sorted = [...column].sort((a, b) => b - a);
    let cumulative = 0;
    let shift = 0;
    for (let j = 0; j < C; j++) {
      cumulative += sorted[j];
      const t = (cumulative - size) / (j + 1);
      if (sorted[j] - t > 0) shift = t;
    }
    for (let y = 0; y < C; y++) out[y * K + c] = Math.max(0, column[y] - shift);
  }
  return projectTable(out, C, K, n);
}

const names = [...errors.keys()];
console.log(`| labels | ${names.map((x) => `${x} NMI - true`).join(" | ")} | NMI of ppi's mean cells - true | clipped share of N | ppi-cells with columns projected onto the simplex, NMI - true |`);
console.log(`|---|${names.map(() => "---|").join("")}---|---|---|`);
const rounds = [...errors.get(names[0])!.keys()];
rounds.forEach((nLabels, round) => {
  const tables = cellsBy.get(round) ?? [];
  const meanCells = new Float64Array(trueCells.length);
  for (const t of tables) t.forEach((v, j) => (meanCells[j] += v / tables.length));
  const meanNmi = tables.length ? metricsFromTable(projectTable(meanCells, C, clustering.k, n)).nmi - trueNmi : Number.NaN;
  const cells = names.map((x) => {
    const e = errors.get(x)!.get(nLabels)!;
    return `${mean(e).toFixed(4)} ± ${se(e).toFixed(4)}`;
  });
  const simplex = tables.map((t) => metricsFromTable(columnSimplex(t)).nmi - trueNmi);
  console.log(`| ${nLabels} | ${cells.join(" | ")} | ${meanNmi.toFixed(4)} | ${mean(clipped.get(round) ?? [Number.NaN]).toFixed(4)} | ${mean(simplex).toFixed(4)} ± ${se(simplex).toFixed(4)} |`);
});
