import { describe, expect, it } from "vitest";
import { contingency, METRIC_KEYS, metricsFromTable } from "@/lib/metrics";
import { createPairComponentsSurrogateFactory, sameComponents } from "../fakes/pair-components-surrogate";
import { recordPairDraws } from "./pair-designs";
import { pairAccuracy, pairwiseEstimatorInput } from "./pairwise-estimate";
import { addPairAnswers, initialPairwiseState, PAIRWISE_MEMBERS, runPairwiseRound } from "./pairwise-round";
import { pairCounts, pairPpiEstimate, stagesByRound } from "./pair-count-ppi";
import { simulatePairwise } from "../harness/pairwise-simulate";
import type { PairwiseSurrogate } from "./pair-surrogate";
import type { CerealProblem } from "../method/problem";
import { Random } from "../../random/named-streams";

/** 90 items in three separated blobs (class = i % 3), a clustering that errs on every 10th item */
function blobs(): { problem: CerealProblem; labels: Int32Array } {
  const n = 90;
  const d = 4;
  const random = new Random(5);
  const labels = Int32Array.from({ length: n }, (_, i) => i % 3);
  const data = new Float32Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) data[i * d + j] = 0.3 * random.normal() + (j === labels[i] ? 4 : 0);
  const assignments = Int32Array.from(labels, (y, i) => (i % 10 === 0 ? (y + 1) % 3 : y));
  return { problem: { embeddings: { data, n, d }, numClasses: 3, clusterings: [{ name: "c", assignments, k: 3 }] }, labels };
}

/**
 * A surrogate that knows the truth: class y goes to cluster id 5 - y of 6 (renamed, as MCL ids
 * are), with probability `sure`, the rest spread evenly; rows listed in `unsure` get flat rows.
 */
function truthSurrogate(labels: Int32Array, sure = 0.9, unsure: ReadonlySet<number> = new Set()): PairwiseSurrogate & { fits: number } {
  const k = 6;
  return {
    numOutputs: k,
    fits: 0,
    async fit() {
      this.fits++;
      return { backend: "fake", trainSeconds: 0, steps: 0, finalLoss: null };
    },
    async predictProba(rows) {
      const out = new Float32Array(rows.length * k);
      rows.forEach((r, i) => {
        for (let c = 0; c < k; c++) out[i * k + c] = unsure.has(r) ? 1 / k : c === 5 - labels[r] ? sure : (1 - sure) / (k - 1);
      });
      return out;
    },
    dispose() {},
  };
}

function seedState(problem: CerealProblem, labels: Int32Array, count: number) {
  const draws = recordPairDraws(
    Array.from({ length: count }, (_, i) => ({ row: i, rowB: i + 1, score: null, q: 1 })),
    "uniform",
    0,
    0,
  );
  return initialPairwiseState(problem, draws, Uint8Array.from(draws, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0)));
}

describe("runPairwiseRound", () => {
  it("with a surrogate that knows the classes (renamed ids), estimates equal the truth, every answer trains each of the fits", async () => {
    const { problem, labels } = blobs();
    const truth = metricsFromTable(contingency(labels, problem.clusterings[0].assignments));
    const state = seedState(problem, labels, 40);
    const surrogate = truthSurrogate(labels);
    const result = await runPairwiseRound(state, surrogate, { design: "anchor", strategy: "all", batch: 12, seed: 1, intervals: { draws: 20 } });
    expect(surrogate.fits).toBe(PAIRWISE_MEMBERS);
    expect(result.nLabels).toBe(40);
    expect(result.heldOut).toBe(0);
    // round 0: no model drew the answered pairs, so none was judged on answers it never saw
    expect(result.pairAccuracy).toBeNull();
    const heldOut = await runPairwiseRound(state, surrogate, { design: "anchor", strategy: "all", batch: 0, seed: 1, holdOut: 0.1, members: 1, intervals: false });
    expect(heldOut.heldOut).toBe(4);
    for (const k of METRIC_KEYS) expect(result.estimate.c[k]).toBeCloseTo(truth[k], 12);
    expect(result.estimatedRows).toHaveLength(90);
    // anchor pairs, stamped after the 40 seed draws as batch 1, none repeating a seed pair
    expect(result.next).toHaveLength(12);
    expect(result.next.map((d) => d.order)).toEqual(Array.from({ length: 12 }, (_, i) => 40 + i));
    expect(result.next.every((d) => d.round === 1 && d.design === "uniform" && d.score !== null)).toBe(true);
    expect(result.next.some((d) => d.rowB === d.row + 1 && d.row < 40)).toBe(false);
    // the interval holds the estimate: sampled ids differ from the argmax only 10% of the time
    expect(result.intervals!.interval.c.nmi[0]).toBeLessThanOrEqual(result.estimate.c.nmi + 1e-12);
  });

  it("thresholded: estimates on confident items plus the pair-labeled ones", async () => {
    const { problem, labels } = blobs();
    const unsure = new Set([0, 1, 50, 51, 52]);
    const state = seedState(problem, labels, 10); // pairs (0,1) .. (9,10): rows 0-10 are pair-labeled
    const result = await runPairwiseRound(state, truthSurrogate(labels, 0.9, unsure), {
      design: "random",
      strategy: "thresholded",
      batch: 0,
      seed: 2,
      intervals: false,
    });
    // 50-52 drop out (flat, not in a pair); 0 and 1 stay as pair-labeled items
    expect(Array.from(result.estimatedRows)).toEqual(Array.from({ length: 90 }, (_, i) => i).filter((i) => i < 50 || i > 52));
    expect(result.heldOut).toBe(0); // fewer than 20 answers: all train
    expect(result.pairAccuracy).toBeNull();
    expect(result.next).toEqual([]);
  });

  it("with stage models: the pair-count metrics' intervals come from the pair counts, ACC and AP's from the bootstrap", async () => {
    const { problem, labels } = blobs();
    const truth = metricsFromTable(contingency(labels, problem.clusterings[0].assignments));
    const surrogate = truthSurrogate(labels);
    const proba = await surrogate.predictProba(Int32Array.from({ length: 90 }, (_, i) => i));
    const seeded = seedState(problem, labels, 40);
    const total = (90 * 89) / 2 - 40;
    // pairs (i, i + 45) share a class, (i, i + 46) do not: the answers vary, and the model predicts them
    const stage1 = recordPairDraws(
      Array.from({ length: 30 }, (_, i) => ({ row: i, rowB: i + 45 + (i % 2), score: null, q: 30 / total })),
      "uniform",
      1,
      40,
    );
    const answered = addPairAnswers(seeded, stage1, Uint8Array.from(stage1, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0)));
    const stageModels = new Map([[1, [proba]]]);
    const state = { ...answered, stageModels, stageResponse: new Map([[1, 0.75]]) };
    const options = { strategy: "all" as const, batch: 0, seed: 2, intervals: { draws: 20 } };
    const random = await runPairwiseRound(state, surrogate, { ...options, design: "random" });
    // the same bootstrap, which a state without stage models keeps
    const withoutStageModels = await runPairwiseRound(answered, surrogate, { ...options, design: "random" });
    const bootstrap = withoutStageModels.intervals!;
    // the drawing model predicted stage 1's answers: NMI keeps the counts' interval; without stage models nothing was judged
    expect([random.uninformed, withoutStageModels.uninformed]).toEqual([false, null]);
    // the intervals follow the draw records, not the design that draws next
    expect((await runPairwiseRound(state, surrogate, { ...options, design: "uncertain" })).intervals).toEqual(random.intervals);
    const counts = pairCounts(problem.clusterings[0].assignments, stagesByRound(state.pairs, state.draws, stageModels, 6, state.stageResponse));
    const expected = pairPpiEstimate(counts, random.estimate.c, bootstrap.interval.c, bootstrap.level).interval;
    for (const k of ["nmi", "ami", "vMeasure", "ari", "fmi"] as const) {
      expect(random.intervals!.interval.c[k]).toEqual(expected[k]);
      expect(random.intervals!.interval.c[k]).not.toEqual(bootstrap.interval.c[k]);
      // the model knows the classes: the intervals close on the truth (to rounding)
      expect(truth[k]).toBeGreaterThanOrEqual(random.intervals!.interval.c[k][0] - 1e-12);
      expect(truth[k]).toBeLessThanOrEqual(random.intervals!.interval.c[k][1] + 1e-12);
    }
    for (const k of ["acc", "ap"] as const) expect(random.intervals!.interval.c[k]).toEqual(bootstrap.interval.c[k]);
    expect(random.intervals!.pBest).toEqual(bootstrap.pBest);
    // stage 1's drawing model knew the classes: every answer it never saw was predicted right
    expect(random.pairAccuracy).toBe(1);
  });

  it("pairAccuracy: the drawing model of the newest stage on its uniform pairs only", async () => {
    const { problem, labels } = blobs();
    const seeded = seedState(problem, labels, 40);
    // stage 1: 30 uniform pairs (i, i + 45), then 6 pairs of a design's own (they record a score)
    const uniform = Array.from({ length: 30 }, (_, i) => ({ row: i, rowB: i + 45, score: null, q: 0.01 }));
    const own = Array.from({ length: 6 }, (_, i) => ({ row: 3 * i, rowB: 3 * i + 60, score: 0.5, q: 0.01 }));
    const stage1 = [...recordPairDraws(uniform, "uniform", 1, 40), ...recordPairDraws(own, "top-score", 1, 70)];
    const answered = addPairAnswers(seeded, stage1, Uint8Array.from(stage1, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0)));
    // a drawing model that puts every row in one cluster predicts "same" for every pair
    const oneCluster = Float32Array.from({ length: 90 * 6 }, (_, i) => (i % 6 === 0 ? 1 : 0));
    const result = await runPairwiseRound({ ...answered, stageModels: new Map([[1, [oneCluster]]]) }, truthSurrogate(labels), {
      design: "random",
      strategy: "all",
      batch: 0,
      seed: 2,
      members: 1,
      intervals: false,
    });
    const sameShare = uniform.filter((p) => labels[p.row] === labels[p.rowB]).length / uniform.length;
    expect(sameShare).toBeGreaterThan(0);
    expect(result.pairAccuracy).toBeCloseTo(sameShare, 12);
    // one cluster says "same" to every pair, which tells nothing: with intervals, NMI's span its whole range and the round says so
    const withIntervals = await runPairwiseRound({ ...answered, stageModels: new Map([[1, [oneCluster]]]) }, truthSurrogate(labels), {
      design: "random",
      strategy: "all",
      batch: 0,
      seed: 2,
      members: 1,
      intervals: { draws: 20 },
    });
    expect(withIntervals.uninformed).toBe(true);
    expect(withIntervals.intervals!.interval.c.nmi).toEqual([0, 1]);
  });

  it("several fits: the estimate is the mean of theirs, the intervals hold it, progress runs over all of them", async () => {
    const { problem, labels } = blobs();
    const clustering = problem.clusterings[0].assignments;
    // fit f (0-based) moves rows 3f .. 3f + 5 to cluster id 0, so each fit's estimate differs
    const ids = (f: number) => Int32Array.from(labels, (y, i) => (i >= 3 * f && i < 3 * f + 6 ? 0 : 5 - y));
    let fits = 0;
    const surrogate: PairwiseSurrogate = {
      numOutputs: 6,
      async fit(_pairs, _options, onProgress) {
        fits++;
        onProgress?.({ step: 1, total: 2 });
        onProgress?.({ step: 2, total: 2 });
        return { backend: "fake", trainSeconds: 0.25, steps: 2, finalLoss: null };
      },
      async predictProba(rows) {
        const mine = ids(fits - 1);
        return Float32Array.from({ length: rows.length * 6 }, (_, i) => (i % 6 === mine[rows[Math.floor(i / 6)]] ? 1 : 0));
      },
      dispose() {},
    };
    const steps: string[] = [];
    const options = { design: "random" as const, strategy: "all" as const, batch: 0, seed: 3, members: 3, intervals: { draws: 20 }, onProgress: (p: { step: number; total: number }) => steps.push(`${p.step}/${p.total}`) };
    const result = await runPairwiseRound(seedState(problem, labels, 40), surrogate, options);
    expect(fits).toBe(3);
    expect(steps).toEqual(["1/6", "2/6", "3/6", "4/6", "5/6", "6/6"]);
    // the round's report counts every fit's steps and seconds
    expect(result.fit).toMatchObject({ steps: 6, trainSeconds: 0.75, backend: "fake" });
    const each = [0, 1, 2].map((f) => metricsFromTable(contingency(ids(f), clustering)));
    for (const k of METRIC_KEYS) {
      expect(result.estimate.c[k]).toBeCloseTo((each[0][k] + each[1][k] + each[2][k]) / 3, 12);
      expect(result.intervals!.interval.c[k][0]).toBeLessThanOrEqual(result.estimate.c[k]);
      expect(result.intervals!.interval.c[k][1]).toBeGreaterThanOrEqual(result.estimate.c[k]);
    }
    expect(new Set(each.map((e) => e.nmi)).size).toBe(3);
    // the stored p(.|x) and pseudo-labels are the first fit's
    expect(Array.from(result.pseudoLabels!)).toEqual(Array.from(ids(0)));
    await expect(runPairwiseRound(seedState(problem, labels, 40), surrogate, { ...options, members: 0 })).rejects.toThrow(/members must be a whole number >= 1/);
  });

  it("several fits with stage models: the mean moves toward the fits' consensus as far as the answered pairs' FMI says", async () => {
    const { problem, labels } = blobs();
    const truth = metricsFromTable(contingency(labels, problem.clusterings[0].assignments));
    // fit m names class y (5 - y + 2m) % 6 and puts the rows with (r + 7m) % 5 = 0 in the next class: every row is
    // wrong in exactly one of five fits, so each fit's ids are noisy and their consensus is the truth (renamed)
    let fits = 0;
    const noisy: PairwiseSurrogate = {
      numOutputs: 6,
      async fit() {
        fits++;
        return { backend: "fake", trainSeconds: 0, steps: 0, finalLoss: null };
      },
      async predictProba(rows) {
        const m = fits - 1;
        const out = new Float32Array(rows.length * 6).fill(0.02);
        rows.forEach((r, i) => (out[i * 6 + ((5 - ((labels[r] + ((r + 7 * m) % 5 === 0 ? 1 : 0)) % 3) + 2 * m) % 6)] = 0.9));
        return out;
      },
      dispose() {},
    };
    const seeded = seedState(problem, labels, 40);
    // stage 1: 600 uniform pairs answered truthfully, drawn by a model that knows the classes
    const random = new Random(11);
    const stagePairs = Array.from({ length: 600 }, () => {
      const row = random.int(90);
      return { row, rowB: (row + 1 + random.int(89)) % 90, score: null, q: 600 / ((90 * 89) / 2) };
    });
    const stage1 = recordPairDraws(stagePairs, "uniform", 1, 40);
    const answered = addPairAnswers(seeded, stage1, Uint8Array.from(stage1, (d) => (labels[d.row] === labels[d.rowB] ? 1 : 0)));
    const knowing = await truthSurrogate(labels).predictProba(Int32Array.from({ length: 90 }, (_, i) => i));
    const options = { design: "random" as const, strategy: "all" as const, batch: 0, seed: 4, members: 5, intervals: { draws: 20 } };
    fits = 0;
    const mean = (await runPairwiseRound(answered, noisy, options)).estimate.c;
    fits = 0;
    const result = await runPairwiseRound({ ...answered, stageModels: new Map([[1, [knowing]]]) }, noisy, options);
    // the fits' noise lowers the mean's NMI; the pair counts read the truth's FMI, so the estimate moves up, near the truth
    expect(mean.nmi).toBeLessThan(truth.nmi - 0.1);
    expect(result.estimate.c.nmi).toBeGreaterThan(mean.nmi + 0.1);
    expect(Math.abs(result.estimate.c.nmi - truth.nmi)).toBeLessThan(0.05);
    for (const k of METRIC_KEYS) {
      expect(result.intervals!.interval.c[k][0]).toBeLessThanOrEqual(result.estimate.c[k]);
      expect(result.intervals!.interval.c[k][1]).toBeGreaterThanOrEqual(result.estimate.c[k]);
    }
    // one fit has no consensus: its estimate is its own, with stage models or without
    fits = 0;
    const single = await runPairwiseRound({ ...answered, stageModels: new Map([[1, [knowing]]]) }, noisy, { ...options, members: 1 });
    fits = 0;
    expect(single.estimate).toEqual((await runPairwiseRound(answered, noisy, { ...options, members: 1 })).estimate);
  });

  it("addPairAnswers appends pairs and answers and advances the round", () => {
    const { problem, labels } = blobs();
    const state = seedState(problem, labels, 3);
    const next = addPairAnswers(state, recordPairDraws([{ row: 5, rowB: 8, score: 0.5, q: 0.1 }], "top-score", 1, 3), Uint8Array.of(1));
    expect(Array.from(next.pairs.a)).toEqual([0, 1, 2, 5]);
    expect(Array.from(next.pairs.b)).toEqual([1, 2, 3, 8]);
    expect(Array.from(next.pairs.same)).toEqual([0, 0, 0, 1]);
    expect(next.round).toBe(1);
    expect(next.draws[3]).toMatchObject({ design: "top-score", order: 3, round: 1 });
  });
});

describe("pairwise estimate helpers", () => {
  it("pairAccuracy compares P > 0.5 with the answers", () => {
    // rows 0 and 1 share a cluster (P = 0.82), row 2 is the other (P = 0.18 with row 0)
    const proba = Float32Array.from([0.9, 0.1, 0.9, 0.1, 0.1, 0.9]);
    expect(pairAccuracy(proba, 2, { a: Int32Array.of(0, 0, 1), b: Int32Array.of(1, 2, 2), same: Uint8Array.of(1, 0, 1) })).toBeCloseTo(2 / 3, 12);
    const input = pairwiseEstimatorInput(proba, 2, 3, "all", new Int32Array(0));
    expect(input.labeled.rows).toHaveLength(0);
    expect(Array.from(input.unlabeled)).toEqual([0, 1, 2]);
  });

  it("sameComponents links 'same' answers, largest component first, capped at K' - 1", () => {
    const pairs = { a: Int32Array.of(0, 1, 3, 5, 7), b: Int32Array.of(1, 2, 4, 6, 8), same: Uint8Array.of(1, 1, 1, 0, 1) };
    const { rows, labels } = sameComponents(pairs, 9, 3);
    expect(Array.from(rows)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // {0,1,2} id 0; {3,4} and {7,8} tie on size: the smaller root first; 5 and 6 alone share the cap id 2
    expect(labels[0]).toBe(0);
    expect(labels[1]).toBe(0);
    expect(labels[2]).toBe(0);
    expect(new Set([labels[3], labels[4]]).size).toBe(1);
    expect(Array.from(labels).filter((l) => l === 2).length).toBeGreaterThanOrEqual(2);
  });
});

describe("simulatePairwise", () => {
  it("runs the loop with the oracle, in the clusterwise JSON shape, reproducibly, and its error falls", async () => {
    const { problem, labels } = blobs();
    const run = (seed: number) =>
      simulatePairwise(problem, labels, createPairComponentsSurrogateFactory(), {
        design: "anchor",
        strategy: "all",
        seed,
        batch: 30,
        budget: 150,
        intervals: false,
        timings: false,
      });
    const result = await run(4);
    expect(result.rounds.map((r) => r.nLabels)).toEqual([30, 60, 90, 120, 150]);
    expect(result.draws).toHaveLength(150);
    expect(result.config).toMatchObject({ mode: "pairwise", pairDesign: "anchor", numOutputs: 6 });
    const first = result.rounds[0].absErr.c.nmi;
    const last = result.rounds[result.rounds.length - 1].absErr.c.nmi;
    expect(last).toBeLessThan(first / 2);
    expect(result.summary.aec.nmi).toBeGreaterThan(0);
    expect(result.summary.aecPer1000Labels.nmi).toBeCloseTo((result.summary.aec.nmi * 30) / 1000, 12);
    expect(JSON.stringify(await run(4))).toBe(JSON.stringify(result));
    // anchor pairs make "same" answers common: well above the 1/3 of random pairs
    expect(result.rounds[result.rounds.length - 1].positiveShare).toBeGreaterThan(0.4);
    // without intervals the stop rule has no widths to read
    expect(result.rounds.every((r) => r.stop === null)).toBe(true);
  });

  it("records the stop rule per round with intervals, as the clusterwise simulator does", async () => {
    const { problem, labels } = blobs();
    const options = { design: "random" as const, strategy: "all" as const, seed: 2, batch: 30, budget: 120, intervals: { draws: 50 }, timings: false };
    const result = await simulatePairwise(problem, labels, createPairComponentsSurrogateFactory(), options);
    expect(result.rounds.every((r) => r.stop !== null && r.interval !== null)).toBe(true);
    // a loose rule (any width, any move, window 1) converges once two rounds exist; the default (width 0.02) does not on 120 answers
    const loose = await simulatePairwise(problem, labels, createPairComponentsSurrogateFactory(), { ...options, stopRule: { maxWidth: 10, maxMove: 10, window: 1 } });
    expect(loose.rounds.map((r) => r.stop!.c.nmi.converged)).toEqual([false, true, true, true]);
    expect(result.rounds[0].stop!.c.nmi).toMatchObject({ converged: false });
  });

  it("records pair-ppi beside argmax with its intervals, also without bootstrap intervals", async () => {
    const { problem, labels } = blobs();
    const options = { design: "random", strategy: "all", seed: 3, batch: 30, budget: 120, intervals: false, timings: false, pairPpi: true } as const;
    const result = await simulatePairwise(problem, labels, createPairComponentsSurrogateFactory(), options);
    for (const round of result.rounds) {
      const argmax = round.byEstimator!.argmax;
      const ppi = round.byEstimator!["pair-ppi"];
      expect(argmax.interval).toBeNull();
      const [lo, hi] = ppi.interval!.c.nmi;
      // the interval holds both the corrected value and argmax's
      expect(lo).toBeLessThanOrEqual(Math.min(ppi.estimate.c.nmi, argmax.estimate.c.nmi));
      expect(hi).toBeGreaterThanOrEqual(Math.max(ppi.estimate.c.nmi, argmax.estimate.c.nmi));
      expect(ppi.estimate.c.nmi - argmax.estimate.c.nmi).toBeCloseTo(ppi.estimate.c.fmi - argmax.estimate.c.fmi, 9);
      expect(ppi.estimate.c.acc).toBe(argmax.estimate.c.acc);
    }
    expect(result.summary.byEstimator["pair-ppi"].intervalCoverage).not.toBeNull();
    expect(result.summary.byEstimator.argmax.intervalCoverage).toBeNull();
    // the app's rule: NMI's interval is its whole range until the drawing models are shown informative
    // (round 0: no model has drawn a stage), ARI's is the counts' own throughout
    const ppi = (r: (typeof result.rounds)[number]) => r.byEstimator!["pair-ppi"].interval!.c;
    expect(ppi(result.rounds[0]).nmi).toEqual([0, 1]);
    expect(ppi(result.rounds[0]).ari).not.toEqual([-1, 1]);
    // a surrogate that knows the classes is shown informative once it has drawn a stage: the FMI-shifted interval
    const knowing = await simulatePairwise(problem, labels, async () => truthSurrogate(labels), options);
    expect(knowing.rounds.map((r) => ppi(r).nmi[1] - ppi(r).nmi[0] < 1)).toEqual([false, true, true, true]);
  });
});
