/**
 * Estimators replayed offline on the rounds of recorded runs, without training their surrogates again: each RUN.json made by
 * `cereal simulate --out RUN.json --save-inputs` has every round's estimator input in RUN.json.inputs/ (the labels, pi of the
 * unlabeled rows, the draws, the out-of-sample record: lib/cereal/harness/estimator-inputs.ts). Every named estimator's point
 * estimates are computed on them and RUN.replay.json is written: the run with its primary estimator and the replayed ones in
 * byEstimator (estimates and errors, no intervals), for `bench/versus-random.ts RUN.replay.json ... RANDOM.json ...`. An
 * estimator is a registered name (lib/cereal/method/estimators.ts) or one exported in `--module FILE` (its `estimators`, an
 * array; bench/replay-candidates.ts holds the candidates measured so far), so a candidate can be measured on many runs in
 * seconds before it is registered and run in full. Point estimates only: intervals and the stop rule need the full run.
 *   node --import tsx bench/estimator-replay.ts --bundles DIR[,DIR] --estimators NAME[,NAME] [--module FILE] RUN.json [RUN.json ...]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { estimatorInputFiles, estimatorInputFromJson, probaFromBytes, type EstimatorInputJson } from "@/lib/cereal/harness/estimator-inputs";
import type { EstimatorRecord, SimulationResult } from "@/lib/cereal/harness/simulate";
import { estimateMetrics, estimatorByName, type Estimator } from "@/lib/cereal/method/estimators";
import { loadBundle } from "@/lib/data/bundle";
import { METRIC_KEYS, type MetricValues } from "@/lib/metrics";

type RunFile = SimulationResult & { readonly bundle: string };
const { values, positionals: files } = parseArgs({
  options: { bundles: { type: "string", default: "" }, estimators: { type: "string", default: "" }, module: { type: "string" } },
  allowPositionals: true,
});
if (files.length === 0 || !values.bundles || !values.estimators) {
  process.stderr.write("usage: node --import tsx bench/estimator-replay.ts --bundles DIR[,DIR] --estimators NAME[,NAME] [--module FILE] RUN.json [RUN.json ...] (runs of cereal simulate --save-inputs)\n");
  process.exit(2);
}
const candidates: readonly Estimator[] = values.module ? ((await import(resolve(values.module))) as { estimators: Estimator[] }).estimators : [];
const estimators = values.estimators.split(",").map((name) => candidates.find((e) => e.name === name) ?? estimatorByName(name));
const bundles = new Map(
  await Promise.all(
    values.bundles.split(",").map(async (dir) => {
      const bundle = await loadBundle(dir);
      return [bundle.manifest.name ?? basename(resolve(dir)), bundle] as const;
    }),
  ),
);

for (const file of files) {
  const run = JSON.parse(readFileSync(file, "utf8")) as RunFile;
  const bundle = bundles.get(run.bundle);
  if (!bundle) throw new Error(`${file}: its bundle '${run.bundle}' is not among --bundles (${[...bundles.keys()].join(", ")})`);
  const dir = `${file}.inputs`;
  if (!existsSync(dir)) throw new Error(`${file}: no ${dir}/ beside it: make the run with cereal simulate --save-inputs`);
  const names = run.config.clusterings as string[];
  const clusterings = bundle.clusterings.filter((c) => names.includes(c.name));
  const primary = run.config.estimator as string;
  const started = performance.now();
  const rounds = run.rounds.map((round) => {
    const files = estimatorInputFiles(round.round);
    const json = JSON.parse(readFileSync(join(dir, files.json), "utf8")) as EstimatorInputJson;
    const proba = json.proba ? probaFromBytes(readFileSync(join(dir, files.proba))) : null;
    const input = estimatorInputFromJson(json, proba);
    if (input.labeled.rows.length !== round.nLabels) throw new Error(`${file}: round ${round.round}'s input holds ${input.labeled.rows.length} labels, its record ${round.nLabels}`);
    const byEstimator: Record<string, EstimatorRecord> = { [primary]: round.byEstimator![primary] };
    for (const estimator of estimators) {
      const estimate = estimateMetrics(input, clusterings, estimator);
      const absErr = Object.fromEntries(
        clusterings.map((c) => [c.name, Object.fromEntries(METRIC_KEYS.map((k) => [k, Math.abs(estimate[c.name][k] - round.true[c.name][k])])) as MetricValues]),
      );
      byEstimator[estimator.name] = { estimate, interval: null, absErr };
    }
    return { ...round, byEstimator };
  });
  const out = file.replace(/\.json$/, "") + ".replay.json";
  writeFileSync(out, JSON.stringify({ ...run, rounds }) + "\n");
  process.stderr.write(`${out}: ${rounds.length} rounds, ${estimators.length} estimators, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
