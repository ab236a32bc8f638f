import { describe, expect, it } from "vitest";
import { contingency, denseTable } from "@/lib/metrics";
import { recordDraws, drawUniform, type Draw } from "./designs";
import { estimatorByName, type EstimatorInput } from "./estimators";
import { createFixedSurrogate } from "../fakes/fixed-surrogate";
import { EMPTY_RECORD, extendRecord } from "./out-of-sample";
import { ppiTable, projectTable } from "./ppi";
import { addLabels, initialState, type CerealProblem, type TestClustering } from "./problem";
import { Random } from "../../random/named-streams";
import { runRound } from "./round";

const draw = (row: number, q: number, round: number, order: number): Draw => ({ row, design: "uniform", score: null, q, order, round });

describe("prediction-powered table", () => {
  // 4 items, 2 classes, clusters 0 1 0 1. Seed: rows 0 (class 0), 1 (class 1), q = 2/4.
  // Round 0's model on the pool {2, 3}: pi(2) = [.9, .1], pi(3) = [.2, .8]; it draws row 2 (q = 1/2), which is class 1.
  const clustering: TestClustering = { name: "c", k: 2, assignments: Int32Array.from([0, 1, 0, 1]) };
  const record = extendRecord(EMPTY_RECORD, {
    round: 1,
    pool: Int32Array.from([2, 3]),
    rawProba: Float32Array.from([0.9, 0.1, 0.2, 0.8]),
    calibratedProba: Float32Array.from([0.9, 0.1, 0.2, 0.8]),
    temperature: 1,
    numClasses: 2,
    clusterings: [clustering],
    drawnPositions: [0],
  });
  const input: EstimatorInput = {
    n: 4,
    numClasses: 2,
    labeled: { rows: Int32Array.from([0, 1, 2]), labels: Int32Array.from([0, 1, 1]) },
    unlabeled: Int32Array.from([3]),
    proba: Float32Array.from([0.2, 0.8]),
    draws: [draw(0, 0.5, 0, 0), draw(1, 0.5, 0, 1), draw(2, 0.5, 1, 2)],
    outOfSample: record,
  };

  it("combines the seed's HT table and the corrected batch by predicted variance (hand computation)", () => {
    // T_0 = 2 x seed counts = [[2, 0], [0, 2]], V_0 = 4 (4/2 - 1) = 4.
    // T_1 = known [[1, 0], [0, 1]] + P [[.9, .2], [.1, .8]] + 2 ([0, 1] - [.9, .1]) in column 0
    //     = [[.1, .2], [1.9, 1.8]];  V_1 = A - B = 2 - (.82 + .68) = .5 (lambda = 1)
    // T^ = (T_0 / 4 + T_1 / .5) / (1/4 + 2)
    const t = denseTable(ppiTable(input, clustering, { pseudo: "soft", lambda: 1, perCluster: "ht" }));
    const expected = [
      [0.7 / 2.25, 0.4 / 2.25],
      [3.8 / 2.25, 4.1 / 2.25],
    ];
    t.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i][j], 5)));
  });

  it("scales each cluster's correction to its pool size (eq. 1', hand computation)", () => {
    // batch 1 drew row 2 of cluster 0 with 1/q = 2, but cluster 0 holds 1 pool row: the correction is halved,
    // T_1 = [[1 + .9 - .9, .2], [.1 + .9, 1.8]] = [[1, .2], [1, 1.8]]; cluster 1 was not drawn: uncorrected
    const t = denseTable(ppiTable(input, clustering, { pseudo: "soft", lambda: 1, perCluster: "stage-ratio" }));
    const expected = [
      [2.5 / 2.25, 0.4 / 2.25],
      [2 / 2.25, 4.1 / 2.25],
    ];
    t.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i][j], 5)));
  });

  it("rescales each column of the combined table to its cluster's size (the default, eq. 4, hand computation)", () => {
    // lambda = .5: T_1 = [[1, 0], [0, 1]] + .5 [[.9, .2], [.1, .8]] + 2 ([0, 1] - .5 [.9, .1]) in column 0
    //   = [[.55, .1], [1.95, 1.4]], V_1 = A - (2 lambda - lambda^2) B = 2 - .75 x 1.5 = .875; T_0 = [[2, 0], [0, 2]], V_0 = 4.
    // T^ = (T_0 / 4 + T_1 8/7) / (1/4 + 8/7): column 0 proportional to [7.9, 15.6], column 1 to [.8, 14.7];
    // each cluster holds 2 items, so every column is rescaled to 2 (the columns of HT sum to 2.41 and 1.59)
    const t = denseTable(ppiTable(input, clustering, { pseudo: "soft", lambda: 0.5 }));
    const expected = [
      [(2 * 7.9) / 23.5, (2 * 0.8) / 15.5],
      [(2 * 15.6) / 23.5, (2 * 14.7) / 15.5],
    ];
    t.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i][j], 5)));
  });

  it("is the seed's Horvitz-Thompson table when no earlier model predicted anything", () => {
    const seedOnly: EstimatorInput = { ...input, labeled: { rows: Int32Array.from([0, 1]), labels: Int32Array.from([0, 1]) }, draws: input.draws.slice(0, 2), outOfSample: undefined };
    expect(denseTable(ppiTable(seedOnly, clustering, { pseudo: "soft", lambda: "tuned" }))).toEqual([
      [2, 0],
      [0, 2],
    ]);
  });

  it("projects negative cells to 0 and rescales to the known total", () => {
    // [[-1, 3], [2, 0]] -> [[0, 3], [2, 0]] (sum 5) -> x 4/5
    expect(denseTable(projectTable(Float64Array.from([-1, 3, 2, 0]), 2, 2, 4))).toEqual([
      [0, 2.4000000000000004],
      [1.6, 0],
    ]);
  });

  /**
   * Each estimator's tables over `reps` simulated runs: a seed of 30 uniform draws and 3 rounds of 30 drawn at random with a fixed
   * surrogate, the cells' mean and mean square over the runs beside the true table.
   */
  async function simulatedTables(N: number, C: number, labels: Int32Array, assignments: Int32Array, proba: Float32Array, names: readonly string[], reps: number) {
    const problem: CerealProblem = { embeddings: { data: new Float32Array(N), n: N, d: 1 }, numClasses: C, clusterings: [{ name: "c", k: C, assignments }] };
    const truth = denseTable(contingency(labels, assignments));
    const zeros = () => truth.map((r) => r.map(() => 0));
    const means = Object.fromEntries(names.map((name) => [name, zeros()]));
    const squares = Object.fromEntries(names.map((name) => [name, zeros()]));
    for (let s = 0; s < reps; s++) {
      const all = Int32Array.from({ length: N }, (_, i) => i);
      const seed = recordDraws(drawUniform(all, 30, Random.from(s, "seed")), "uniform", 0, 0);
      let state = initialState(problem, seed, Int32Array.from(seed, (d) => labels[d.row]));
      for (let r = 0; r < 3; r++) {
        const result = await runRound(state, createFixedSurrogate(proba, C), {
          acquisition: "random",
          estimator: estimatorByName("ppi"),
          fixmatch: false,
          batch: 30,
          seed: s,
          intervals: false,
        });
        state = { ...addLabels(state, result.next, Int32Array.from(result.next, (d) => labels[d.row])), outOfSample: result.outOfSample };
      }
      const input: EstimatorInput = { n: N, numClasses: C, labeled: state.labeled, unlabeled: new Int32Array(0), proba: null, draws: state.draws, outOfSample: state.outOfSample };
      for (const name of names)
        denseTable(estimatorByName(name).table(input, problem.clusterings[0])).forEach((row, i) =>
          row.forEach((v, j) => {
            means[name][i][j] += v / reps;
            squares[name][i][j] += (v * v) / reps;
          }),
        );
    }
    return { truth, means, squares };
  }

  /** 600 items, 3 classes, 3 clusters that follow the class 60% of the time; the surrogate's guess right with probability right(cluster) */
  function syntheticPool(seed: number, right: (cluster: number) => number) {
    const random = new Random(seed);
    const labels = Int32Array.from({ length: 600 }, () => random.int(3));
    const assignments = Int32Array.from(labels, (y) => (random.next() < 0.6 ? y : random.int(3)));
    const guesses = Int32Array.from(labels, (y, i) => (random.next() < right(assignments[i]) ? y : random.int(3)));
    return { N: 600, C: 3, labels, assignments, guesses };
  }

  /** a surrogate that names `guess` with probability `confidence` and spreads the rest over the other classes */
  function confidentRows(guesses: Int32Array, C: number, confidence: number): Float32Array {
    const proba = new Float32Array(guesses.length * C);
    for (let i = 0; i < guesses.length; i++) for (let y = 0; y < C; y++) proba[i * C + y] = y === guesses[i] ? confidence : (1 - confidence) / (C - 1);
    return proba;
  }

  it("is unbiased cell by cell under uniform sampling (mean over many runs)", async () => {
    // 3 classes x 3 clusters with every cell large (no clipping); a fixed surrogate 75% right
    const { N, C, labels, assignments, guesses } = syntheticPool(11, () => 0.7);
    const { truth, means, squares } = await simulatedTables(N, C, labels, assignments, confidentRows(guesses, C, 0.8), ["ppi", "ppi-hard"], 150);
    for (let i = 0; i < C; i++)
      for (let j = 0; j < C; j++) {
        const se = Math.sqrt((squares.ppi[i][j] - means.ppi[i][j] ** 2) / 150);
        // within 4 standard errors of the true count, and the standard error itself small
        expect(Math.abs(means.ppi[i][j] - truth[i][j])).toBeLessThan(4 * se + 0.5);
        expect(Math.abs(means["ppi-hard"][i][j] - truth[i][j])).toBeLessThan(4 * se + 1);
        expect(se).toBeLessThan(2);
      }
  });

  it("tunes lambda per cluster: as unbiased, and a smaller error where pi reads one cluster well and another not at all", async () => {
    // 3 classes x 3 clusters; pi is right 95% of the time in cluster 0, a guess at random in cluster 1, right 70% in cluster 2:
    // one lambda per batch is a compromise, one per cluster can trust pi in cluster 0 and fall to the labels in cluster 1
    const right = [0.95, 0, 0.7];
    const { N, C, labels, assignments, guesses } = syntheticPool(12, (cluster) => right[cluster]);
    const reps = 150;
    const { truth, means, squares } = await simulatedTables(N, C, labels, assignments, confidentRows(guesses, C, 0.9), ["ppi", "ppi-per-cluster"], reps);
    const squaredError = { ppi: 0, "ppi-per-cluster": 0 };
    for (let i = 0; i < C; i++)
      for (let j = 0; j < C; j++) {
        const se = Math.sqrt((squares["ppi-per-cluster"][i][j] - means["ppi-per-cluster"][i][j] ** 2) / reps);
        expect(Math.abs(means["ppi-per-cluster"][i][j] - truth[i][j])).toBeLessThan(4 * se + 0.5);
        for (const name of ["ppi", "ppi-per-cluster"] as const) squaredError[name] += squares[name][i][j] - 2 * means[name][i][j] * truth[i][j] + truth[i][j] ** 2;
      }
    expect(squaredError["ppi-per-cluster"]).toBeLessThan(0.9 * squaredError.ppi);
  });
});

describe("out-of-sample record", () => {
  it("survives a JSON round trip (the server stores it between rounds)", async () => {
    const { recordFromJson, recordToJson } = await import("./out-of-sample");
    const clustering: TestClustering = { name: "c", k: 2, assignments: Int32Array.from([0, 1, 0, 1]) };
    const record = extendRecord(EMPTY_RECORD, {
      round: 1,
      pool: Int32Array.from([2, 3]),
      rawProba: Float32Array.from([0.9, 0.1, 0.2, 0.8]),
      calibratedProba: Float32Array.from([0.875, 0.125, 0.25, 0.75]),
      temperature: 1.5,
      numClasses: 2,
      clusterings: [clustering],
      drawnPositions: [1],
    });
    const back = recordFromJson(JSON.parse(JSON.stringify(recordToJson(record))));
    expect(back.batches.get(1)!.residual).toEqual(record.batches.get(1)!.residual);
    expect(Array.from(back.batches.get(1)!.softPseudo.c)).toEqual(Array.from(record.batches.get(1)!.softPseudo.c));
    expect(Array.from(back.predictions.get(3)!.calibrated)).toEqual([0.25, 0.75]);
    expect(back.predictions.has(2)).toBe(false);
  });
});
