import { describe, expect, it } from "vitest";
import { nmiFromTable } from "@/lib/metrics";
import { createFixedSurrogate, oneHot } from "../fakes/fixed-surrogate";
import type { FitOptions, Surrogate } from "../method/surrogate";
import { cellBiasScore } from "./family-scores";
import { selectingSurrogateFactory } from "./selecting-surrogate";

const N = 40;
const C = 2;
const truth = Int32Array.from({ length: N }, (_, i) => i % 2);
const embeddings = { data: new Float32Array(N), n: N, d: 1 };
const rowsUpTo = (k: number) => Int32Array.from({ length: k }, (_, i) => i);
const labeledUpTo = (k: number) => ({ rows: rowsUpTo(k), labels: truth.slice(0, k) });
const unlabeledFrom = (k: number) => Int32Array.from({ length: N - k }, (_, i) => i + k);

/** pi = 0.6 on the true class: right, but unsure */
const unsure = Float32Array.from({ length: N * C }, (_, j) => (j % C === truth[Math.floor(j / C)] ? 0.6 : 0.4));

/** a fixed surrogate that records the options of each fit and hands out weights */
function recording(proba: Float32Array, fits: FitOptions[]): Surrogate {
  const inner = createFixedSurrogate(proba, C);
  return { ...inner, fit: async (labeled, unlabeled, options) => (fits.push(options), inner.fit(labeled, unlabeled, options)), weights: () => Float32Array.of(7) };
}

describe("surrogate selection by out-of-sample log-loss", () => {
  it("keeps the first candidate until a batch is scored, then predicts with the lower-loss one", async () => {
    const fitsUnsure: FitOptions[] = [];
    const fitsOracle: FitOptions[] = [];
    const create = selectingSurrogateFactory({
      unsure: async () => recording(unsure, fitsUnsure),
      oracle: async () => recording(oneHot(truth, C), fitsOracle),
    });
    const s = await create(embeddings, C);
    await s.fit(labeledUpTo(10), unlabeledFrom(10), { seed: 0, fixmatch: true });
    expect(s.chosen()).toBe("unsure");
    expect(s.scores().every((score) => score.score === null)).toBe(true);
    expect(Array.from(await s.predictProba(Int32Array.of(11)))).toEqual([0.4000000059604645, 0.6000000238418579]);

    // the first candidate alone gets the warm-start weights, and weights() hands out its own
    const report = await s.fit(labeledUpTo(20), unlabeledFrom(20), { seed: 1, fixmatch: true, initialWeights: Float32Array.of(3) });
    expect(fitsUnsure[1].initialWeights).toEqual(Float32Array.of(3));
    expect(fitsOracle[1].initialWeights).toBeUndefined();
    expect(Array.from(s.weights!())).toEqual([7]);
    // rows 10..19 were new: the unsure model's loss is -ln 0.6 on each, the oracle's -ln 1 = 0
    const scores = s.scores();
    expect(scores.map((score) => score.rows)).toEqual([10, 10]);
    expect(scores[0].score).toBeCloseTo(-Math.log(0.6), 6);
    expect(scores[1].score).toBeCloseTo(0, 6);
    expect(s.chosen()).toBe("oracle");
    expect(report.backend).toBe("oracle:fake");
    expect(Array.from(await s.predictProba(Int32Array.of(21)))).toEqual([0, 1]);

    // a refit on the same labels scores nothing new
    await s.fit(labeledUpTo(20), unlabeledFrom(20), { seed: 2, fixmatch: true });
    expect(s.scores()[0].rows).toBe(10);
  });


  it("by the cell bias, chooses the family whose pi sums to the table, and scores the fresh rows with their own inclusion probabilities", async () => {
    // cluster 0 = rows 0..19, cluster 1 = rows 20..39; the truth alternates classes in both
    const clusters = Int32Array.from({ length: N }, (_, i) => (i < 20 ? 0 : 1));
    // swapped: one-hot, wrong on rows 10 and 11 (one of each class, same cluster): log-loss high, soft table exact
    const swapped = Float32Array.from({ length: N * C }, (_, j) => {
      const i = Math.floor(j / C);
      return j % C === (i === 10 || i === 11 ? 1 - truth[i] : truth[i]) ? 1 : 0;
    });
    const leaning = Float32Array.from({ length: N * C }, (_, j) => (j % C === 0 ? 0.7 : 0.3));
    const added: (Float64Array | null)[] = [];
    const create = selectingSurrogateFactory({ leaning: async () => createFixedSurrogate(leaning, C), swapped: async () => createFixedSurrogate(swapped, C) }, (candidates, classes) => {
      const inner = cellBiasScore([{ k: 2, assignments: clusters }])(candidates, classes);
      return { ...inner, add: (fresh, probas) => (added.push(fresh.inclusion), inner.add(fresh, probas)) };
    });
    const s = await create(embeddings, C);
    const inclusion = Float64Array.from({ length: 20 }, (_, i) => 0.1 + i / 100);
    await s.fit(labeledUpTo(10), unlabeledFrom(10), { seed: 0, fixmatch: true, inclusion: inclusion.slice(0, 10) });
    expect(s.chosen()).toBe("leaning");
    await s.fit(labeledUpTo(20), unlabeledFrom(20), { seed: 1, fixmatch: true, inclusion });
    expect(added).toEqual([inclusion.slice(10, 20)]);
    expect(s.chosen()).toBe("swapped");
    const [leaningScore, swappedScore] = s.scores().map((score) => score.score!);
    expect(swappedScore).toBeLessThan(leaningScore);
  });

  it("given the clusterings, reports each candidate's batch scores and the NMI of its own soft table", async () => {
    const clusters = Int32Array.from({ length: N }, (_, i) => (i < 20 ? 0 : 1));
    const leaning = Float32Array.from({ length: N * C }, (_, j) => (j % C === 0 ? 0.7 : 0.3));
    const create = selectingSurrogateFactory({ leaning: async () => createFixedSurrogate(leaning, C), oracle: async () => createFixedSurrogate(oneHot(truth, C), C) }, undefined, [
      { name: "halves", assignments: clusters, k: 2 },
    ]);
    const s = await create(embeddings, C);
    const first = await s.fit(labeledUpTo(10), unlabeledFrom(10), { seed: 0, fixmatch: true });
    expect(first.candidates!.map((c) => c.batchScores)).toEqual([
      { "log-loss": null, "cell bias": null },
      { "log-loss": null, "cell bias": null },
    ]);
    const second = await s.fit(labeledUpTo(20), unlabeledFrom(20), { seed: 1, fixmatch: true });
    const [lean, oracle] = second.candidates!;
    expect(lean.batchScores["log-loss"]).toBeCloseTo(-(5 * Math.log(0.7) + 5 * Math.log(0.3)) / 10, 6);
    expect(oracle.batchScores["log-loss"]).toBeCloseTo(0, 6);
    expect(oracle.batchScores["cell bias"]!).toBeLessThan(lean.batchScores["cell bias"]!);
    // rows 0..19 with their labels; rows 20..39 (10 of each class, all in cluster 1) as pi: 14 and 6 in cluster 1
    expect(lean.softNmi.halves).toBeCloseTo(nmiFromTable([[10, 14], [10, 6]]), 6);
    expect(oracle.softNmi.halves).toBeCloseTo(0, 9);
  });
});
