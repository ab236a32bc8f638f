/**
 * Two estimators' 90% NMI intervals and stop rules on the same runs (issue #23 item 3 and 4 for an estimator change): runs of
 * `cereal simulate --recommended --compare OTHER` record both, and this prints, per bundle, the coverage table (runs as the
 * unit, Wilson 95% bounds) and the stop-rule table of the recorded default and of OTHER (harness/run-tables.ts).
 *   node --import tsx bench/interval-compare.ts --other guarded-linear-plentiful [--budgets 200,500,1000] RUN.json [RUN.json ...]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { coverageTable, replayStopRule, runAsEstimator, stopRuleTable } from "@/lib/cereal/harness/run-tables";
import type { SimulationResult } from "@/lib/cereal/harness/simulate";

const { values, positionals: files } = parseArgs({ options: { other: { type: "string" }, budgets: { type: "string", default: "200,500,1000" } }, allowPositionals: true });
if (!values.other || files.length === 0) {
  process.stderr.write("usage: node --import tsx bench/interval-compare.ts --other ESTIMATOR [--budgets 200,500,1000] RUN.json [RUN.json ...] (runs of cereal simulate --compare ESTIMATOR)\n");
  process.exit(2);
}
const budgets = values.budgets.split(",").map(Number);
const runs = files.map((file) => JSON.parse(readFileSync(file, "utf8")) as SimulationResult & { bundle: string });
for (const [label, view] of [
  [`the runs' own (${runs[0].config.estimator})`, (run: SimulationResult) => replayStopRule(run)],
  [values.other, (run: SimulationResult) => runAsEstimator(run, values.other!)],
] as const) {
  const byBundle = new Map<string, SimulationResult[]>();
  for (const run of runs) byBundle.set(run.bundle, [...(byBundle.get(run.bundle) ?? []), view(run)]);
  process.stdout.write(`\n## ${label}\n\n${coverageTable(byBundle, budgets)}\n\n${stopRuleTable(byBundle, Math.max(...budgets))}\n`);
}
