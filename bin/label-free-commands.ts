/**
 * `cereal ace` and `cereal cluster`: label-free evaluation across a bundle's embedding spaces
 * (lib/ace) and candidate clusterings (lib/clustering), straight from a bundle folder.
 */
import { parseArgs } from "node:util";
import { evaluateLabelFree, INTERNAL_MEASURES, spearman, type InternalMeasure } from "@/lib/ace";
import { CLUSTERING_METHODS, makeCandidateClustering, type ClusteringMethod } from "@/lib/clustering";
import { loadSpacesBundle } from "@/lib/data/embedding-spaces";
import { writeNpy } from "@/lib/data/npy";
import { CommandError } from "./project-commands";

export const LABEL_FREE_USAGE = `  cereal ace      --bundle DIR [--measure ${INTERNAL_MEASURES.join("|")}] [--seed 0] [--dip-simulations 1000]
  cereal cluster  --bundle DIR --space NAME --method ${CLUSTERING_METHODS.join("|")} --k K [--seed 0] --out FILE.npy`;

function choice<T extends string>(value: string | undefined, name: string, allowed: readonly T[], fallback?: T): T {
  if (value === undefined) {
    if (fallback === undefined) throw new CommandError(`--${name} is required`);
    return fallback;
  }
  if (!allowed.includes(value as T)) throw new CommandError(`--${name} must be one of ${allowed.join(", ")}, got '${value}'`);
  return value as T;
}

function count(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new CommandError(`--${name} is required`);
    return fallback;
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new CommandError(`--${name} must be a non-negative integer, got '${value}'`);
  return n;
}

const fmt = (v: number | null) => (v === null || Number.isNaN(v) ? "     -" : v.toFixed(4).padStart(8));

export async function runAce(argv: string[], out: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { bundle: { type: "string" }, measure: { type: "string" }, seed: { type: "string" }, "dip-simulations": { type: "string" } },
    strict: true,
  });
  if (!values.bundle) throw new CommandError("--bundle is required");
  const measure = choice<InternalMeasure>(values.measure, "measure", INTERNAL_MEASURES, "silhouette");
  const seed = count(values.seed, "seed", 0);
  const bundle = await loadSpacesBundle(values.bundle);
  if (bundle.clusterings.length < 3) throw new CommandError("ACE needs at least 3 clusterings");
  const started = performance.now();
  const r = evaluateLabelFree(bundle.spaces, bundle.clusterings, measure, { seed, simulations: count(values["dip-simulations"], "dip-simulations", 1000) });
  const seconds = (performance.now() - started) / 1000;

  const oriented = measure === "davies-bouldin" ? " (negated: higher is better)" : "";
  out(`${measure}${oriented} of ${bundle.clusterings.length} clusterings in ${bundle.spaces.length} spaces, N = ${bundle.n} (${seconds.toFixed(1)} s)`);
  out("");
  out("dip test of each space's first principal component (Holm at 0.05):");
  for (const d of r.dips) out(`  ${d.space.padEnd(16)} dip ${d.dip.toFixed(5)}  p ${d.pValue.toFixed(4)}${r.ace.multimodalSpaces.includes(d.space) ? "" : "  (dropped)"}`);
  if (r.ace.multimodalSpaces.length === bundle.spaces.length) out("  (every space kept: none rejects unimodality after Holm, or all do)");
  if (r.ace.constantSpaces.length) out(`constant scores, dropped: ${r.ace.constantSpaces.join(", ")}`);
  out(`outlier spaces (phase 1), dropped: ${r.ace.outlierSpaces.join(", ") || "none"}`);
  out("subgroups (PageRank weights, mean weighted score):");
  for (const g of r.ace.subgroups)
    out(`  ${g === r.ace.chosen ? "*" : " "} ${g.spaces.map((s, i) => `${s} ${g.weights[i].toFixed(3)}`).join(", ")}  mean ${g.meanScore.toFixed(4)}`);
  out("");
  const width = Math.max(10, ...bundle.clusterings.map((c) => c.name.length));
  out(`${"clustering".padEnd(width)}  ${"space".padEnd(14)}   paired   pooled      ACE  true NMI`);
  bundle.clusterings.forEach((c, i) =>
    out(`${c.name.padEnd(width)}  ${(c.space ?? "-").padEnd(14)} ${fmt(r.matrix.paired[i])} ${fmt(r.pooled[i])} ${fmt(r.ace.scores[i])}  ${fmt(c.trueNmi)}`),
  );
  const truth = bundle.clusterings.map((c) => c.trueNmi);
  if (truth.every((v): v is number => v !== null)) {
    out("");
    out(`Spearman correlation with the true NMI over the ${truth.length} clusterings:`);
    out(`  paired ${measure}  ${spearman(r.matrix.paired, truth).toFixed(4)}`);
    out(`  pooled score (dip-screened spaces)  ${spearman(r.pooled, truth).toFixed(4)}`);
    out(`  pooled score (all spaces)  ${spearman(r.pooledAll, truth).toFixed(4)}`);
    out(`  ACE score  ${spearman(r.ace.scores, truth).toFixed(4)}`);
  }
}

export async function runCluster(argv: string[], out: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      bundle: { type: "string" },
      space: { type: "string" },
      method: { type: "string" },
      k: { type: "string" },
      seed: { type: "string" },
      out: { type: "string" },
    },
    strict: true,
  });
  if (!values.bundle) throw new CommandError("--bundle is required");
  if (!values.space) throw new CommandError("--space is required");
  if (!values.out) throw new CommandError("--out is required");
  const method = choice<ClusteringMethod>(values.method, "method", CLUSTERING_METHODS);
  const k = count(values.k, "k");
  const seed = count(values.seed, "seed", 0);
  const bundle = await loadSpacesBundle(values.bundle, { spaceNames: [values.space], withClusterings: false });
  const space = bundle.spaces[0];
  if (k < 2 || k >= bundle.n) throw new CommandError(`--k must be between 2 and ${bundle.n - 1}`);
  const result = await makeCandidateClustering(space.x, bundle.n, space.d, { method, k, seed });
  await writeNpy(values.out, result.labels, [bundle.n]);
  out(`${method} k=${k} seed=${seed} on ${space.name} (N = ${bundle.n}, D = ${space.d}): ${result.seconds.toFixed(2)} s -> ${values.out}`);
}
