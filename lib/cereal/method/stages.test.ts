import { describe, expect, it } from "vitest";
import { createKnnSurrogate } from "../fakes/knn-surrogate";
import { Random } from "../../random/named-streams";
import { acquireRound, estimateRound, fitRound, rankRound, type RoundOptions } from "./round";
import { drawStage } from "./stages";
import { recordToJson } from "./out-of-sample";
import { ppiEstimator } from "./ppi";
import type { CerealProblem, CerealState } from "./problem";

/** A small problem: 3 separated classes in 2-D, a clustering that splits one of them. */
function problem(n = 300): { problem: CerealProblem; truth: Int32Array } {
  const random = Random.from(11, "stages-test");
  const data = new Float32Array(n * 2);
  const truth = new Int32Array(n);
  const assignments = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    truth[i] = i % 3;
    data[2 * i] = truth[i] * 3 + random.next();
    data[2 * i + 1] = random.next();
    assignments[i] = truth[i] === 2 && data[2 * i + 1] > 0.5 ? 3 : truth[i];
  }
  return { problem: { embeddings: { data, n, d: 2 }, numClasses: 3, clusterings: [{ name: "c", k: 4, assignments }] }, truth };
}

const seedDraws = (rows: Int32Array, n: number) => Array.from(rows, (row, i) => ({ row, design: "uniform" as const, score: null, q: rows.length / n, order: i, round: 0 }));

describe("stages", () => {
  it("draws like the synchronous round when drawn from the round's whole pool with its own ranking", async () => {
    const { problem: p, truth } = problem();
    const rows = Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const state: CerealState = { problem: p, labeled: { rows, labels: Int32Array.from(rows, (r) => truth[r]) }, draws: seedDraws(rows, 300), round: 0 };
    const options: RoundOptions = { acquisition: "hardnmi", design: "proportional", estimator: ppiEstimator("ppi", { pseudo: "soft", lambda: "tuned" }), fixmatch: false, batch: 12, seed: 5, intervals: false };
    const surrogate = createKnnSurrogate(p.embeddings, 3);
    const fitted = await fitRound(state, surrogate, options);
    const estimated = estimateRound(state, fitted, options);
    const sync = acquireRound(state, fitted, estimated, options);
    const ranking = rankRound(state, fitted, estimated, options);
    const stage = drawStage({ stage: 1, firstOrder: 9, pool: fitted.unlabeled, size: 12, ranking, numClasses: 3, clusterings: p.clusterings, random: Random.from(5, "acquire", 0) });
    expect(stage.draws).toEqual(sync.next);
    expect(stage).toMatchObject({ design: "proportional", eps: 0.1, poolSize: 300 - 9 });
    expect(recordToJson({ batches: new Map([[1, stage.evidence!.batch]]), predictions: stage.evidence!.predictions })).toEqual(recordToJson(sync.outOfSample));
  });

  it("draws a later stage from the shrunken pool with an older ranking: q over that pool, evidence of that model", async () => {
    const { problem: p, truth } = problem();
    const rows = Int32Array.from([0, 1, 2, 3, 4, 5]);
    const state: CerealState = { problem: p, labeled: { rows, labels: Int32Array.from(rows, (r) => truth[r]) }, draws: seedDraws(rows, 300), round: 0 };
    const options: RoundOptions = { acquisition: "hardnmi", design: "proportional", estimator: ppiEstimator("ppi", { pseudo: "soft", lambda: "tuned" }), fixmatch: false, batch: 10, seed: 1, intervals: false };
    const fitted = await fitRound(state, createKnnSurrogate(p.embeddings, 3), options);
    const ranking = rankRound(state, fitted, estimateRound(state, fitted, options), options);
    // 40 more rows were drawn (open tasks) since the round ranked: the stage draws from the rest
    const pool = fitted.unlabeled.slice(40);
    const stage = drawStage({ stage: 3, firstOrder: 46, pool, size: 10, ranking, numClasses: 3, clusterings: p.clusterings, random: Random.from(1, "stage", 3) });
    expect(stage.draws).toHaveLength(10);
    expect(stage.draws.every((d) => d.round === 3 && d.design === "proportional" && pool.includes(d.row))).toBe(true);
    expect(stage.draws.map((d) => d.order)).toEqual(Array.from({ length: 10 }, (_, i) => 46 + i));
    expect(stage.poolSize).toBe(pool.length);
    // the hard pseudo table counts every pool row once, the soft one sums pi over the pool
    const hard = stage.evidence!.batch.hardPseudo.c;
    expect(hard.reduce((a, b) => a + b, 0)).toBeCloseTo(pool.length, 9);
    const soft = stage.evidence!.batch.softPseudo.c;
    expect(soft.reduce((a, b) => a + b, 0)).toBeCloseTo(pool.length, 4);
    expect([...stage.evidence!.predictions.keys()].sort((a, b) => a - b)).toEqual(stage.draws.map((d) => d.row).sort((a, b) => a - b));
    // a row the ranking never saw (drawn before the round) cannot be in a later stage's pool
    expect(() => drawStage({ stage: 4, firstOrder: 56, pool: Int32Array.from([0]), size: 1, ranking, numClasses: 3, clusterings: p.clusterings, random: Random.from(1, "stage", 4) })).toThrow(/did not rank it/);
  });

  it("with uniformWhileLabelsCarry, draws uniformly (eps = 1) in a round whose estimator rests on the labels, synchronous and staged alike", async () => {
    const { problem: p, truth } = problem();
    const rows = Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const state: CerealState = { problem: p, labeled: { rows, labels: Int32Array.from(rows, (r) => truth[r]) }, draws: seedDraws(rows, 300), round: 0 };
    const ppi = ppiEstimator("ppi", { pseudo: "soft", lambda: "tuned" });
    const resting = (rests: boolean): RoundOptions => ({
      acquisition: "hardnmi",
      design: "proportional",
      estimator: { ...ppi, restsOnLabels: () => rests },
      fixmatch: false,
      batch: 12,
      seed: 5,
      intervals: false,
      uniformWhileLabelsCarry: true,
    });
    const fitted = await fitRound(state, createKnnSurrogate(p.embeddings, 3), resting(true));
    const carried = estimateRound(state, fitted, resting(true));
    expect(carried.nextEps).toBe(1);
    const uniform = acquireRound(state, fitted, carried, resting(true));
    expect(uniform.next.map((d) => d.q)).toEqual(Array(12).fill(12 / 291).map((q) => expect.closeTo(q, 12)));
    expect(rankRound(state, fitted, carried, resting(true)).eps).toBe(1);
    // the same round when the estimate rests on the surrogate, or with the option off: the acquisition's q (eps 0.1)
    const own = estimateRound(state, fitted, resting(false));
    expect(own.nextEps).toBe(0.1);
    const drawn = acquireRound(state, fitted, own, resting(false));
    expect(new Set(drawn.next.map((d) => d.q.toFixed(9))).size).toBeGreaterThan(1);
    expect(rankRound(state, fitted, own, resting(false)).eps).toBe(0.1);
    const off = { ...resting(true), uniformWhileLabelsCarry: false };
    const unruled = estimateRound(state, fitted, off);
    expect(unruled.nextEps).toBe(0.1);
    expect(acquireRound(state, fitted, unruled, off).next).toEqual(drawn.next);
  });

  it("draws uniformly without evidence before any round finished", () => {
    const { problem: p } = problem();
    const pool = Int32Array.from({ length: 100 }, (_, i) => i + 20);
    const stage = drawStage({ stage: 1, firstOrder: 20, pool, size: 25, ranking: null, numClasses: 3, clusterings: p.clusterings, random: Random.from(2, "stage", 1) });
    expect(stage).toMatchObject({ design: "uniform", eps: 0, poolSize: 100, evidence: null });
    expect(stage.draws.every((d) => d.q === 0.25 && d.round === 1)).toBe(true);
    expect(new Set(stage.draws.map((d) => d.row)).size).toBe(25);
  });
});
