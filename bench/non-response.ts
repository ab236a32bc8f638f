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
 * Forms: the default `ppi` (columns post-stratified to the cluster sizes, ppi.ts eq. 4), the former
 * per-stage ratio (`ppi-stage-ratio`, eq. 1') and plain Horvitz-Thompson (`ppi-ht`).
 *
 *   node --import tsx bench/non-response.ts [SCHEDULES=600] [P=0.5]
 */
import { ppiCells, type PpiOptions } from "@/lib/cereal/method/ppi";
import { unlabeledRows } from "@/lib/cereal/method/problem";
import { hardRows, skippingResponder } from "@/lib/cereal/harness/respond";
import { EXPERIMENT_ROWS, generatedProblem, runSchedule, tableDeviation } from "@/lib/cereal/harness/stage-experiment";

const schedules = Number(process.argv[2] ?? 600);
const rate = Number(process.argv[3] ?? 0.5);
if (!Number.isInteger(schedules) || schedules < 10) throw new Error(`SCHEDULES must be an integer >= 10, got '${process.argv[2]}'`);
if (!(rate >= 0 && rate <= 1)) throw new Error(`P must be a probability in [0, 1], got '${process.argv[3]}'`);

const { problem, truth, trueCells } = generatedProblem();
const clustering = problem.clusterings[0];
const C = problem.numClasses;
const forms: Record<string, PpiOptions> = {
  "ppi (columns post-stratified)": { pseudo: "soft", lambda: "tuned" },
  "ppi-stage-ratio": { pseudo: "soft", lambda: "tuned", perCluster: "stage-ratio" },
  "ppi-ht": { pseudo: "soft", lambda: "tuned", perCluster: "ht" },
};
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
    for (const [name, options] of Object.entries(forms)) (tables[name] ??= []).push(ppiCells(input, clustering, options));
  }
  console.log(`\nskips ${markName}: ${((1 - answered / drawn) * 100).toFixed(1)}% of draws skipped`);
  for (const [name, t] of Object.entries(tables)) {
    const dev = tableDeviation(t, trueCells);
    const bias = Array.from(dev.mean, (m, j) => (m - trueCells[j]).toFixed(2)).join(" ");
    console.log(`  ${name}: bias ${bias}; max |z| ${Math.max(...Array.from(dev.z, Math.abs)).toFixed(1)}; chi2 ${dev.chi2.toFixed(1)} on ${dev.df} df`);
  }
}
