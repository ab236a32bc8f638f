/**
 * Non-response bias of the prediction-powered table (issue #18; lib/cereal/method/ESTIMATORS.md,
 * "Non-response"). Many asynchronous schedules on the generated problem of
 * lib/cereal/harness/stage-experiment.ts (N 240, 3 classes, 4 clusters; seed 30, then 3 stages of
 * 30-44 rows, lag 0-2), with a draw skipped at rate P on "marked" rows and P / 5 on the others:
 *  - by cluster: the marked rows are one cluster's (skips depend on the cluster only);
 *  - by class within the cluster: the marked rows are those whose class is not their cluster's
 *    majority class (simulate --skip-rate's definition).
 * Prints, per estimator form, the mean table's bias per cell (C x K row-major), the largest |z| and
 * the Hotelling-type chi-square of the mean against the truth (11 df; 31.3 is its 0.999 quantile).
 * "+ columns to cluster sizes" rescales each column of the table to its cluster's known size
 * (a post-stratification by cluster that ppi.ts does not do; the projection rescales the whole
 * table to N).
 *
 *   node --import tsx bench/non-response.ts [SCHEDULES=600] [P=0.5]
 */
import { ppiCells, type PpiOptions } from "@/lib/cereal/method/ppi";
import { unlabeledRows } from "@/lib/cereal/method/problem";
import { hardRows, skippingResponder } from "@/lib/cereal/harness/respond";
import { EXPERIMENT_CLUSTERS, EXPERIMENT_ROWS, generatedProblem, runSchedule, tableDeviation } from "@/lib/cereal/harness/stage-experiment";

const schedules = Number(process.argv[2] ?? 600);
const rate = Number(process.argv[3] ?? 0.5);
if (!Number.isInteger(schedules) || schedules < 10) throw new Error(`SCHEDULES must be an integer >= 10, got '${process.argv[2]}'`);
if (!(rate >= 0 && rate <= 1)) throw new Error(`P must be a probability in [0, 1], got '${process.argv[3]}'`);

const { problem, truth, trueCells } = generatedProblem();
const clustering = problem.clusterings[0];
const K = EXPERIMENT_CLUSTERS;
const C = problem.numClasses;
const clusterSize = Float64Array.from({ length: K }, (_, c) => clustering.assignments.filter((a) => a === c).length);

/** each column rescaled to its cluster's known size */
function columnsToClusterSizes(cells: Float64Array): Float64Array {
  const out = cells.slice();
  for (let c = 0; c < K; c++) {
    let sum = 0;
    for (let y = 0; y < C; y++) sum += cells[y * K + c];
    for (let y = 0; y < C; y++) out[y * K + c] = sum > 0 ? (cells[y * K + c] * clusterSize[c]) / sum : 0;
  }
  return out;
}

const forms: Record<string, PpiOptions> = { "ppi (per-cluster ratio)": { pseudo: "soft", lambda: "tuned" }, "ppi-ht": { pseudo: "soft", lambda: "tuned", perCluster: "ht" } };
const marks: Record<string, Uint8Array> = {
  none: new Uint8Array(EXPERIMENT_ROWS),
  "by cluster (cluster 1)": Uint8Array.from(clustering.assignments, (c) => (c === 1 ? 1 : 0)),
  "by class within the cluster": hardRows(truth, clustering, C),
};
console.log(`${schedules} schedules, skip rate ${rate} on marked rows, ${rate / 5} elsewhere; true table ${Array.from(trueCells).join(" ")}`);
for (const [markName, marked] of Object.entries(marks)) {
  const tables: Record<string, Float64Array[]> = {};
  let drawn = 0;
  let answered = 0;
  for (let i = 0; i < schedules; i++) {
    const seed = 5000 + i;
    const respond = skippingResponder(truth, marked, markName === "none" ? 0 : rate, seed);
    const sizes = [0, 1, 2].map((round) => 30 + ((i * 5 + round * 3) % 15));
    const state = await runSchedule(problem, { seed, lag: i % 3, seedSize: 30, sizes, respond });
    drawn += 30 + sizes.reduce((a, b) => a + b, 0);
    answered += state.labeled.rows.length;
    const input = { n: EXPERIMENT_ROWS, numClasses: C, labeled: state.labeled, unlabeled: unlabeledRows(EXPERIMENT_ROWS, state.labeled.rows), proba: null, draws: state.draws, outOfSample: state.outOfSample };
    for (const [name, options] of Object.entries(forms)) {
      const cells = ppiCells(input, clustering, options);
      (tables[name] ??= []).push(cells);
      (tables[`${name} + columns to cluster sizes`] ??= []).push(columnsToClusterSizes(cells));
    }
  }
  console.log(`\nskips ${markName}: ${((1 - answered / drawn) * 100).toFixed(1)}% of draws skipped`);
  for (const [name, t] of Object.entries(tables)) {
    const dev = tableDeviation(t, trueCells);
    const bias = Array.from(dev.mean, (m, j) => (m - trueCells[j]).toFixed(2)).join(" ");
    console.log(`  ${name}: bias ${bias}; max |z| ${Math.max(...Array.from(dev.z, Math.abs)).toFixed(1)}; chi2 ${dev.chi2.toFixed(1)} on ${dev.df} df`);
  }
}
