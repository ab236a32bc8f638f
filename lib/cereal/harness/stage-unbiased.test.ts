/**
 * The asynchronous schedule keeps the prediction-powered table unbiased (issue #18): over 2,000
 * simulated schedules on a small generated problem (lag 0-2, stage sizes 6-20 varying within and
 * across schedules, Hard NMI drawn proportionally with a kNN surrogate that learns, so every
 * round's model differs), the mean of the estimated table (ppi.ts's cells before the projection)
 * equals the true table within Monte-Carlo error. Three forms: lambda fixed, plain Horvitz-Thompson
 * correction and batches weighted by size (exactly unbiased), the registered `ppi-ht` (tuned
 * lambda, weights by predicted variance), and the default `ppi` (the same, its columns
 * post-stratified to the cluster sizes, ppi.ts eq. 4). The former default, a ratio per stage
 * (`ppi-stage-ratio`), is shown to fail here: with 6-20 rows a stage over 4 clusters its O(1/n) bias
 * is visible, lag 0 included (MEASUREMENTS.md, "Asynchronous stages"). The test fails when a stage's
 * q is computed over another pool or its evidence comes from a model that saw the stage's labels
 * (same section).
 */
import { describe, expect, it } from "vitest";
import { ppiCells, type PpiOptions } from "../method/ppi";
import { unlabeledRows } from "../method/problem";
import { oracleResponder } from "./respond";
import { EXPERIMENT_ROWS, generatedProblem, runSchedule, tableDeviation } from "./stage-experiment";

const SCHEDULES = 2000;

describe("asynchronous stages", () => {
  it(`over ${SCHEDULES} schedules (lag 0-2, varying stage sizes) the mean prediction-powered table is the true table`, async () => {
    const { problem, truth, trueCells } = generatedProblem();
    const clustering = problem.clusterings[0];
    // exactly unbiased: lambda fixed, plain HT, batch weights fixed in advance (the stage sizes)
    const exact: PpiOptions = { pseudo: "soft", lambda: 0.5, perCluster: "ht", combine: "size" };
    // the registered ppi-ht: tuned lambda, weights by predicted variance (the default ppi less the post-stratification)
    const tuned: PpiOptions = { pseudo: "soft", lambda: "tuned", perCluster: "ht" };
    // the default ppi: tuned lambda, predicted-variance weights, columns post-stratified to the cluster sizes
    const recommended: PpiOptions = { pseudo: "soft", lambda: "tuned" };
    const stageRatio: PpiOptions = { pseudo: "soft", lambda: "tuned", perCluster: "stage-ratio" };
    const tables = { exact: [] as Float64Array[], tuned: [] as Float64Array[], recommended: [] as Float64Array[], stageRatio: [] as Float64Array[] };
    for (let i = 0; i < SCHEDULES; i++) {
      // a seed of 12, then 4 stages of 6..20 rows varying with the schedule and the stage
      const sizes = [0, 1, 2, 3].map((round) => 6 + ((i * 5 + round * 3) % 15));
      const state = await runSchedule(problem, { seed: 1000 + i, lag: i % 3, seedSize: 12, sizes, respond: oracleResponder(truth) });
      expect(state.draws.some((d) => d.design === "proportional")).toBe(true);
      const input = { n: EXPERIMENT_ROWS, numClasses: problem.numClasses, labeled: state.labeled, unlabeled: unlabeledRows(EXPERIMENT_ROWS, state.labeled.rows), proba: null, draws: state.draws, outOfSample: state.outOfSample };
      tables.exact.push(ppiCells(input, clustering, exact));
      tables.tuned.push(ppiCells(input, clustering, tuned));
      tables.recommended.push(ppiCells(input, clustering, recommended));
      tables.stageRatio.push(ppiCells(input, clustering, stageRatio));
    }
    // every cell within 4 standard errors, and the whole table: chi-square on 11 df, P(> 31.3) = 0.001
    for (const dev of [tableDeviation(tables.exact, trueCells), tableDeviation(tables.tuned, trueCells), tableDeviation(tables.recommended, trueCells)]) {
      for (const z of dev.z) expect(Math.abs(z)).toBeLessThan(4);
      expect(dev.chi2).toBeLessThan(31.3);
    }
    // the ratio per stage does not pass: the test has the power to see an O(1/n) bias
    expect(Math.max(...Array.from(tableDeviation(tables.stageRatio, trueCells).z, Math.abs))).toBeGreaterThan(6);
  }, 120_000);
});
