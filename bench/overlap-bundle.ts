/**
 * Writes the weak-surrogate test bundle of issue #12: many overlapping Gaussian classes, where a
 * surrogate trained on a few hundred labels stays near 50% accurate and FixMatch can confirm its
 * own mistakes. The test clustering is k-means (k = 10 unless --k) on the embeddings, written as
 * clusterings/kmeans_k{K}.npy. --imbalance A draws class c with probability proportional to
 * (c + 1)^-A; --anisotropy, --warp, --modes and --tails shape the classes (lib/cereal/harness/overlap-data.ts). Seeded; bench/weak-set.ts writes the fixed weak test set of issue #23 with it.
 *   node --import tsx bench/overlap-bundle.ts OUT_DIR [--n 4000] [--d 32] [--classes 20] [--spread 0.35] [--seed 0] [--k 10] [--imbalance 0] [--anisotropy 0] [--warp 0] [--modes 1] [--tails 0] [--name NAME]
 * then `npm run cereal -- simulate --bundle OUT_DIR --clustering kmeans_k10 --recommended` against
 * `--acquisition random` (the labels alone).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { kMeans } from "@/lib/clustering/kmeans";
import { contingency, nmiFromTable } from "@/lib/metrics";
import { overlappingClasses } from "@/lib/cereal/harness/overlap-data";
import { encodeNpy } from "@/lib/data/npy";

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { n: { type: "string" }, d: { type: "string" }, classes: { type: "string" }, spread: { type: "string" }, seed: { type: "string" }, k: { type: "string" }, imbalance: { type: "string" }, anisotropy: { type: "string" }, warp: { type: "string" }, modes: { type: "string" }, tails: { type: "string" }, name: { type: "string" } },
});
const out = positionals[0];
if (!out) throw new Error("usage: overlap-bundle.ts OUT_DIR [--n 4000] [--d 32] [--classes 20] [--spread 0.35] [--seed 0] [--k 10] [--imbalance 0] [--anisotropy 0] [--warp 0] [--modes 1] [--tails 0] [--name NAME]");
const n = Number(values.n ?? 4000);
const d = Number(values.d ?? 32);
const classes = Number(values.classes ?? 20);
const spread = Number(values.spread ?? 0.35);
const k = Number(values.k ?? 10);
const imbalance = Number(values.imbalance ?? 0);
const anisotropy = Number(values.anisotropy ?? 0);
const warp = Number(values.warp ?? 0);
const modes = Number(values.modes ?? 1);
const tails = Number(values.tails ?? 0);
const { embeddings, labels } = overlappingClasses({ n, d, classes, spread, seed: Number(values.seed ?? 0), imbalance, anisotropy, warp, modes, tails });
const clustering = kMeans(embeddings, n, d, { k, seed: 0, restarts: 3 });
const assignments = Int32Array.from(clustering.labels);
const nmi = nmiFromTable(contingency(labels, assignments));

await mkdir(path.join(out, "clusterings"), { recursive: true });
await writeFile(path.join(out, "embeddings.npy"), encodeNpy(embeddings, [n, d]));
await writeFile(path.join(out, "labels.npy"), encodeNpy(labels, [n]));
await writeFile(path.join(out, "clusterings", `kmeans_k${k}.npy`), encodeNpy(assignments, [n]));
const manifest = {
  name: values.name ?? `overlap-${classes}`,
  N: n,
  D: d,
  embeddings: "embeddings.npy",
  labels: "labels.npy",
  class_names: Array.from({ length: classes }, (_, c) => `class ${c}`),
  source: `bench/overlap-bundle.ts: ${classes} Gaussian classes${imbalance > 0 ? ` (sizes ~ (c + 1)^-${imbalance})` : ""}, means ~ N(0, ${spread}^2 I), ${anisotropy > 0 ? `noise scales exp(${anisotropy} (2u - 1)) per class and dimension` : "unit noise"}${warp > 0 ? `, warped x + ${warp} tanh(M x)` : ""}${modes > 1 ? `, ${modes} Gaussian modes a class offset by N(0, ${spread}^2 I)` : ""}${tails > 0 ? `, Student t noise with ${tails} degrees of freedom` : ""}, seed ${values.seed ?? 0}`,
  clusterings: { [`kmeans_k${k}`]: { file: `clusterings/kmeans_k${k}.npy`, K: k, algorithm: "lib/clustering kMeans", nmi } },
};
await writeFile(path.join(out, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
process.stdout.write(`wrote ${out}: N=${n} D=${d} classes=${classes}, kmeans_k${k} true NMI ${nmi.toFixed(3)}\n`);
