import { describe, expect, it } from "vitest";
import { Random } from "../../random/named-streams";
import type { Draw } from "./designs";
import type { OutOfSampleRecord, RowPrediction } from "./out-of-sample";
import type { TestClustering } from "./problem";
import { softResidualReading } from "./soft-residual";

const [N, C, K, BATCH] = [3000, 4, 3, 50];

/** rows whose labels are drawn from a known p(.|x); the surrogate's pi is p raised to `power` and renormalised (1: calibrated) */
function readingFor(power: number, seed: number): number {
  const random = Random.from(seed, "soft-residual-test");
  const truth = new Float32Array(N * C);
  const labels = new Int32Array(N);
  const assignments = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    // a dominant class per row (its cluster's favourite most of the time), the rest spread
    assignments[i] = i % K;
    const top = random.next() < 0.7 ? assignments[i] : Math.floor(random.next() * C);
    let s = 0;
    for (let y = 0; y < C; y++) s += truth[i * C + y] = (y === top ? 3 : 0) + random.next();
    for (let y = 0; y < C; y++) truth[i * C + y] /= s;
    labels[i] = random.categorical(truth, i * C, C);
  }
  const clustering: TestClustering = { name: "c", k: K, assignments };
  // a uniform seed batch (no model), then 4 uniform batches predicted out of sample
  const order = random.shuffle(Int32Array.from({ length: N }, (_, i) => i));
  const draws: Draw[] = [];
  const predictions = new Map<number, RowPrediction>();
  for (let round = 0; round < 5; round++) {
    const pool = N - round * BATCH;
    for (let j = 0; j < BATCH; j++) {
      const row = order[round * BATCH + j];
      draws.push({ row, design: "uniform", score: null, q: BATCH / pool, order: draws.length, round });
      if (round === 0) continue;
      const pi = new Float32Array(C);
      let s = 0;
      for (let y = 0; y < C; y++) s += pi[y] = truth[row * C + y] ** power;
      predictions.set(row, { raw: pi.map((v) => v / s), calibrated: pi.map((v) => v / s) });
    }
  }
  const record: OutOfSampleRecord = { batches: new Map(), predictions };
  const labeled = { rows: Int32Array.from(draws, (d) => d.row), labels: Int32Array.from(draws, (d) => labels[d.row]) };
  return softResidualReading(labeled, draws, record, clustering, C)!.reading;
}

describe("softResidualReading", () => {
  it("reads about 1 for a calibrated pi and far more for an overconfident one (the soft table's bias)", () => {
    const seeds = Array.from({ length: 20 }, (_, s) => s);
    const calibrated = seeds.map((s) => readingFor(1, s));
    const overconfident = seeds.map((s) => readingFor(4, s));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // each cell's r^2 / v is about chi-square on 1 df under calibration
    expect(mean(calibrated)).toBeGreaterThan(0.7);
    expect(mean(calibrated)).toBeLessThan(1.4);
    expect(mean(overconfident)).toBeGreaterThan(3);
  });

  it("is null before any batch has out-of-sample predictions", () => {
    const clustering: TestClustering = { name: "c", k: 1, assignments: new Int32Array(4) };
    const draws: Draw[] = [0, 1, 2, 3].map((row) => ({ row, design: "uniform", score: null, q: 0.5, order: row, round: 0 }));
    const labeled = { rows: Int32Array.from([0, 1, 2, 3]), labels: Int32Array.from([0, 1, 0, 1]) };
    expect(softResidualReading(labeled, draws, { batches: new Map(), predictions: new Map() }, clustering, 2)).toBeNull();
  });
});
