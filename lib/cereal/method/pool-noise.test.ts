import { describe, expect, it } from "vitest";
import { contingency, METRIC_KEYS, metricsFromTable } from "@/lib/metrics";
import { Random } from "../../random/named-streams";
import type { EstimatorInput } from "./estimators";
import { softTable } from "./estimators-soft";
import { poolNoiseSe } from "./pool-noise";

/** N items in C classes and K clusters, the first m labeled; pi sharp on most items and unsure on a share, the cluster following the class */
function problem(sharp: number) {
  const N = 900;
  const C = 4;
  const K = 3;
  const m = 100;
  const random = new Random(7);
  const classOf = new Int32Array(N);
  const assignments = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    classOf[i] = random.int(C);
    assignments[i] = random.next() < 0.7 ? classOf[i] % K : random.int(K);
  }
  const unlabeled = Int32Array.from({ length: N - m }, (_, i) => m + i);
  const proba = new Float32Array((N - m) * C);
  for (let i = 0; i < N - m; i++) {
    const o = i * C;
    if (random.next() < sharp) proba[o + classOf[m + i]] = 1 - 0.001 * (C - 1);
    else for (let y = 0; y < C; y++) proba[o + y] = 0.2 + random.next();
    let s = 0;
    for (let y = 0; y < C; y++) s += proba[o + y] || (proba[o + y] = 0.001);
    for (let y = 0; y < C; y++) proba[o + y] /= s;
  }
  const input: EstimatorInput = {
    n: N,
    numClasses: C,
    labeled: { rows: Int32Array.from({ length: m }, (_, i) => i), labels: classOf.slice(0, m) },
    unlabeled,
    proba,
    draws: [],
  };
  return { input, clustering: { name: "c", assignments, k: K }, classOf };
}

describe("poolNoiseSe", () => {
  it("is the spread of the true metrics when the unlabeled items' classes are drawn from pi (delta method within 15%)", () => {
    const { input, clustering, classOf } = problem(0.6);
    const se = poolNoiseSe(input, clustering, softTable(input, clustering));
    const random = new Random(11);
    const R = 600;
    const values = Object.fromEntries(METRIC_KEYS.map((k) => [k, [] as number[]]));
    const truth = classOf.slice();
    const C = input.numClasses;
    for (let r = 0; r < R; r++) {
      for (let i = 0; i < input.unlabeled.length; i++) truth[input.unlabeled[i]] = random.categorical(input.proba!, i * C, C);
      const metrics = metricsFromTable(contingency(truth, clustering.assignments, { rows: C, cols: clustering.k }));
      for (const k of METRIC_KEYS) values[k].push(metrics[k]);
    }
    for (const k of ["nmi", "ami", "ari", "vMeasure", "fmi"] as const) {
      const v = values[k];
      const mean = v.reduce((a, x) => a + x, 0) / R;
      const sd = Math.sqrt(v.reduce((a, x) => a + (x - mean) ** 2, 0) / (R - 1));
      expect(se[k], k).toBeGreaterThan(0.85 * sd);
      expect(se[k], k).toBeLessThan(1.15 * sd);
    }
  });

  it("shrinks as pi grows sure, and is 0 where pi reads every unlabeled item exactly", () => {
    const loose = problem(0.6);
    const sure = problem(0.99);
    const seLoose = poolNoiseSe(loose.input, loose.clustering, softTable(loose.input, loose.clustering));
    const seSure = poolNoiseSe(sure.input, sure.clustering, softTable(sure.input, sure.clustering));
    expect(seSure.nmi).toBeLessThan(seLoose.nmi / 2);
    const exact = new Float32Array(sure.input.proba!.length);
    for (let i = 0; i < sure.input.unlabeled.length; i++) exact[i * 4 + sure.classOf[sure.input.unlabeled[i]]] = 1;
    const input = { ...sure.input, proba: exact };
    expect(poolNoiseSe(input, sure.clustering, softTable(input, sure.clustering)).nmi).toBe(0);
  });

  it("needs the surrogate's probabilities", () => {
    const { input, clustering } = problem(0.6);
    expect(() => poolNoiseSe({ ...input, proba: null }, clustering, softTable(input, clustering))).toThrow(/no surrogate probabilities/);
  });
});
