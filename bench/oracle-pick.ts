/**
 * The floor of every rule that picks one table per round (issue #23): for replayed runs (bench/estimator-replay.ts's
 * RUN.replay.json), an "oracle" estimator that in each round and for each clustering and metric reports whichever of the
 * named estimators is nearest the truth. No rule that reads only the round can do better than this pick, so where its
 * AEC stays above a target, choosing among those tables cannot meet it: the tables themselves must get better. Writes
 * RUN.oracle.json (the run with `oracle` added to byEstimator) for `bench/versus-random.ts RUN.oracle.json ... RANDOM.json ...`.
 *   node --import tsx bench/oracle-pick.ts --estimators soft,ppi,ppi-jackknife,guarded RUN.replay.json [RUN.replay.json ...]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { EstimatorRecord, SimulationResult } from "@/lib/cereal/harness/simulate";
import { METRIC_KEYS, type MetricValues } from "@/lib/metrics";

const { values, positionals: files } = parseArgs({ options: { estimators: { type: "string", default: "" } }, allowPositionals: true });
const names = values.estimators.split(",").filter((s) => s.length > 0);
if (files.length === 0 || names.length < 2) {
  process.stderr.write("usage: node --import tsx bench/oracle-pick.ts --estimators A,B[,C...] RUN.replay.json [RUN.replay.json ...] (at least two estimators the replays hold)\n");
  process.exit(2);
}

for (const file of files) {
  const run = JSON.parse(readFileSync(file, "utf8")) as SimulationResult;
  const rounds = run.rounds.map((round) => {
    const records = names.map((name) => {
      const record = round.byEstimator?.[name];
      if (!record) throw new Error(`${file}: round ${round.round} has no estimates of '${name}' (it holds ${Object.keys(round.byEstimator ?? {}).join(", ")}); replay it with bench/estimator-replay.ts --estimators ${name}`);
      return record;
    });
    const estimate: Record<string, MetricValues> = {};
    const absErr: Record<string, MetricValues> = {};
    for (const clustering of Object.keys(records[0].absErr)) {
      const best = (key: (typeof METRIC_KEYS)[number]) => records.reduce((a, b) => (b.absErr[clustering][key] < a.absErr[clustering][key] ? b : a));
      estimate[clustering] = Object.fromEntries(METRIC_KEYS.map((key) => [key, best(key).estimate[clustering][key]])) as unknown as MetricValues;
      absErr[clustering] = Object.fromEntries(METRIC_KEYS.map((key) => [key, best(key).absErr[clustering][key]])) as unknown as MetricValues;
    }
    const oracle: EstimatorRecord = { estimate, interval: null, absErr };
    return { ...round, byEstimator: { ...round.byEstimator, oracle } };
  });
  const out = file.replace(/(\.replay)?\.json$/, ".oracle.json");
  writeFileSync(out, JSON.stringify({ ...run, rounds }));
  process.stdout.write(`${out}: the per-round pick of ${names.join(", ")}\n`);
}
