import { describe, expect, it } from "vitest";
import { digitsProblem } from "../fakes/digits-problem";
import { createKnnSurrogateFactory } from "../fakes/knn-surrogate";
import { guardedEstimator } from "../method/estimators-guarded";
import { initialState, type CerealProblem } from "../method/problem";
import type { Ranking } from "../method/stages";
import { hardRows, oracleResponder, skippingResponder } from "./respond";
import { simulate } from "./simulate";
import { drawingRound, nextStage, RankingWindow, type Responder } from "./stage-schedule";

const ranking = (round: number): Ranking => ({ round, design: "uniform", eps: 0, scores: new Float64Array(0), rawProba: null, temperature: 1 });

describe("the asynchronous stage schedule", () => {
  it("draws stage s with round s - 1 - L's ranking and keeps the last L + 1 rankings", () => {
    expect([1, 2, 3, 4].map((s) => drawingRound(s, 2))).toEqual([-2, -1, 0, 1]);
    const window = new RankingWindow(2);
    expect(window.forStage(1)).toBeNull();
    expect(window.forStage(2)).toBeNull();
    for (const r of [0, 1, 2]) window.keep(ranking(r));
    expect(window.forStage(3)?.round).toBe(0);
    window.keep(ranking(3));
    expect(window.size).toBe(3);
    expect(window.forStage(4)?.round).toBe(1);
    expect(() => window.forStage(3)).toThrow(/round 0's ranking under lag 2, but it is not kept/);
    expect(() => new RankingWindow(-1)).toThrow(/non-negative integer/);
    expect(() => new RankingWindow(1.5)).toThrow(/non-negative integer/);
  });

  it("draws a stage from the rows neither labeled nor skipped before it and leaves its own skips out of the labels", () => {
    const n = 60;
    const problem: CerealProblem = {
      embeddings: { data: Float32Array.from({ length: n * 2 }, (_, i) => i), n, d: 2 },
      numClasses: 2,
      clusterings: [{ name: "c", k: 2, assignments: Int32Array.from({ length: n }, (_, i) => i % 2) }],
    };
    const truth = Int32Array.from({ length: n }, (_, i) => (i < 30 ? 0 : 1));
    const rows = Int32Array.from({ length: 10 }, (_, i) => i);
    const state = initialState(problem, Array.from(rows, (row, order) => ({ row, design: "uniform" as const, score: null, q: 10 / n, order, round: 0 })), Int32Array.from(rows, (r) => truth[r]));
    const oracle = oracleResponder(truth);
    const evenSkipped: Responder = (draws, stage) => ({ labels: oracle(draws, stage).labels, answered: draws.map((d) => d.row % 2 === 1) });
    // lag 1: stage 1 is drawn before any round finished, uniformly
    const { state: next, skipped } = nextStage(state, { size: 20, window: new RankingWindow(1), seed: 4, skipped: new Set([10, 11]), respond: evenSkipped });
    expect(next.round).toBe(1);
    const drawn = [...next.labeled.rows.slice(10), ...skipped];
    expect(drawn).toHaveLength(20);
    expect(new Set(drawn).size).toBe(20);
    expect(drawn.every((row) => row >= 12)).toBe(true);
    expect(skipped.every((row) => row % 2 === 0)).toBe(true);
    expect(next.draws.slice(10).every((d) => d.row % 2 === 1 && d.round === 1 && d.design === "uniform" && d.q === 20 / 48 && d.order >= 12)).toBe(true);
    expect(Array.from(next.labeled.labels.slice(10))).toEqual(Array.from(next.labeled.rows.slice(10), (r) => truth[r]));
  });

  it("skips hard rows (class other than the cluster's majority) at the rate, easy ones at a fifth of it", () => {
    const labels = Int32Array.from([0, 0, 1, 1, 1, 2]);
    const clustering = { name: "c", k: 2, assignments: Int32Array.from([0, 0, 0, 1, 1, 1]) };
    expect(Array.from(hardRows(labels, clustering, 3))).toEqual([0, 0, 1, 0, 0, 1]);
    const many = 6000;
    const respond = skippingResponder(new Int32Array(many), Uint8Array.from({ length: many }, (_, i) => i % 2), 0.5, 9);
    const draws = Array.from({ length: many }, (_, row) => ({ row, design: "uniform" as const, score: null, q: 1, order: row, round: 1 }));
    const { answered } = respond(draws, 1);
    const skipRate = (hard: number) => answered.filter((a, row) => row % 2 === hard && !a).length / (many / 2);
    expect(skipRate(1)).toBeGreaterThan(0.46);
    expect(skipRate(1)).toBeLessThan(0.54);
    expect(skipRate(0)).toBeGreaterThan(0.08);
    expect(skipRate(0)).toBeLessThan(0.12);
    expect(respond(draws, 1)).toEqual({ labels: new Int32Array(many), answered });
    expect(() => skippingResponder(labels, hardRows(labels, clustering, 3), 1.5, 0)).toThrow(/probability in \[0, 1\]/);
  });

  it("simulates a lagged schedule with skips on digits: uniform stages until round 0 ranks, every draw once, the budget counting skips", async () => {
    const { problem, labels } = await digitsProblem();
    const result = await simulate(problem, labels, createKnnSurrogateFactory(), {
      acquisition: "hardnmi",
      design: "proportional",
      estimator: guardedEstimator,
      fixmatch: false,
      seed: 2,
      budget: 250,
      lag: 2,
      skipRate: 0.3,
      intervals: false,
      timings: false,
    });
    expect(result.config).toMatchObject({ lag: 2, skipRate: 0.3 });
    expect(result.rounds.map((r) => r.round)).toEqual([0, 1, 2, 3, 4]);
    const stages = [0, 1, 2, 3, 4].map((s) => result.draws.filter((d) => d.round === s));
    expect(stages.map((s) => s[0].design)).toEqual(["uniform", "uniform", "uniform", "proportional", "proportional"]);
    // answered draws only: each stage lost some to skips, and no row was drawn twice
    expect(stages.every((s) => s.length < 50 && s.length > 25)).toBe(true);
    expect(new Set(result.draws.map((d) => d.row)).size).toBe(result.draws.length);
    expect(result.rounds.map((r) => r.nLabels)).toEqual(stages.map((_, s) => stages.slice(0, s + 1).reduce((a, t) => a + t.length, 0)));
    // orders count the skipped draws too: the last one is below the budget
    expect(Math.max(...result.draws.map((d) => d.order))).toBeLessThan(250);
    expect(new Set(result.draws.map((d) => d.order)).size).toBe(result.draws.length);

    // the synchronous loop skips alike: skipped rows are never drawn again and orders stay unique
    const synchronous = await simulate(problem, labels, createKnnSurrogateFactory(), {
      acquisition: "hardnmi", design: "proportional", estimator: guardedEstimator, fixmatch: false, seed: 2, budget: 250, skipRate: 0.3, intervals: false, timings: false,
    });
    expect(synchronous.config).toMatchObject({ skipRate: 0.3 });
    expect(synchronous.config).not.toHaveProperty("lag");
    expect(synchronous.draws.length).toBeLessThan(250);
    expect(new Set(synchronous.draws.map((d) => d.row)).size).toBe(synchronous.draws.length);
    expect(new Set(synchronous.draws.map((d) => d.order)).size).toBe(synchronous.draws.length);
    expect(Math.max(...synchronous.draws.map((d) => d.order))).toBeLessThan(250);
  });
});
