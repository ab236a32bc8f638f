/**
 * Writes the weak-surrogate test bundle of issue #12: many overlapping Gaussian classes, where a
 * surrogate trained on a few hundred labels stays near 50% accurate and FixMatch can confirm its
 * own mistakes. The test clustering is k-means with k = 10 on the embeddings. Seeded.
 *   node --import tsx bench/overlap-bundle.ts OUT_DIR [--n 4000] [--d 32] [--classes 20] [--spread 0.35] [--seed 0]
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
  options: { n: { type: "string" }, d: { type: "string" }, classes: { type: "string" }, spread: { type: "string" }, seed: { type: "string" } },
});
const out = positionals[0];
if (!out) throw new Error("usage: overlap-bundle.ts OUT_DIR [--n 4000] [--d 32] [--classes 20] [--spread 0.35] [--seed 0]");
const n = Number(values.n ?? 4000);
const d = Number(values.d ?? 32);
const classes = Number(values.classes ?? 20);
const spread = Number(values.spread ?? 0.35);
const { embeddings, labels } = overlappingClasses({ n, d, classes, spread, seed: Number(values.seed ?? 0) });
const clustering = kMeans(embeddings, n, d, { k: 10, seed: 0, restarts: 3 });
const assignments = Int32Array.from(clustering.labels);
const nmi = nmiFromTable(contingency(labels, assignments));

await mkdir(path.join(out, "clusterings"), { recursive: true });
await writeFile(path.join(out, "embeddings.npy"), encodeNpy(embeddings, [n, d]));
await writeFile(path.join(out, "labels.npy"), encodeNpy(labels, [n]));
await writeFile(path.join(out, "clusterings", "kmeans_k10.npy"), encodeNpy(assignments, [n]));
const manifest = {
  name: `overlap-${classes}`,
  N: n,
  D: d,
  embeddings: "embeddings.npy",
  labels: "labels.npy",
  class_names: Array.from({ length: classes }, (_, c) => `class ${c}`),
  source: `bench/overlap-bundle.ts: ${classes} Gaussian classes, means ~ N(0, ${spread}^2 I), unit noise, seed ${values.seed ?? 0}`,
  clusterings: { kmeans_k10: { file: "clusterings/kmeans_k10.npy", K: 10, algorithm: "lib/clustering kMeans", nmi } },
};
await writeFile(path.join(out, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
process.stdout.write(`wrote ${out}: N=${n} D=${d} classes=${classes}, kmeans_k10 true NMI ${nmi.toFixed(3)}\n`);
