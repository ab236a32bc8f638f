import { describe, expect, it } from "vitest";
import { agreeingScore, cellBiasScore, logLossScore, meanLogLoss } from "./family-scores";

// 20 rows, 2 classes; cluster 0 (rows 0-9) holds classes 0 and 1 alternately, cluster 1 (rows 10-19) class 1 only
const C = 2;
const labels = Int32Array.from({ length: 20 }, (_, i) => (i < 10 ? i % 2 : 1));
const clustering = { k: 2, assignments: Int32Array.from({ length: 20 }, (_, i) => (i < 10 ? 0 : 1)) };
const rows = Int32Array.from({ length: 20 }, (_, i) => i);
const fresh = { rows, labels, inclusion: null, pool: 20 };

/** sharp and mostly right; rows 0 and 1 (one of each class, both in cluster 0) swapped: its soft table is exact */
const swapping = Float32Array.from({ length: 40 }, (_, j) => {
  const i = Math.floor(j / C);
  const predicted = i < 2 ? 1 - labels[i] : labels[i];
  return j % C === predicted ? 1 : 0;
});
/** (0.7, 0.3) on cluster 0, right on cluster 1: calibrated-looking, but its soft table puts 7 of cluster 0's 10 in class 0 where there are 5 */
const leaning = Float32Array.from({ length: 40 }, (_, j) => {
  const i = Math.floor(j / C);
  if (i >= 10) return j % C === 1 ? 1 : 0;
  return j % C === 0 ? 0.7 : 0.3;
});

describe("family scores", () => {
  it("log-loss prefers the leaning family, the cell bias the one whose errors cancel within a cell", () => {
    const byLogLoss = logLossScore(2, C);
    byLogLoss.add(fresh, [swapping, leaning]);
    const [swap, lean] = byLogLoss.scores() as number[];
    expect(swap).toBeCloseTo((2 * Math.log(1e6)) / 20, 6);
    expect(lean).toBeCloseTo(-(5 * Math.log(0.7) + 5 * Math.log(0.3)) / 20, 6);
    expect(lean).toBeLessThan(swap);

    const byCells = cellBiasScore([clustering])(2, C);
    expect(byCells.scores()).toEqual([null, null]);
    byCells.add(fresh, [swapping, leaning]);
    // swapping: in each cluster-0 cell the residuals +1 and -1 cancel, sum u^2 = 2: (0 - 2) x 2 cells / (20 x 19)
    // leaning: sum u = -2 and +2, sum u^2 = 5 (0.09 + 0.49) = 2.9 per cell: 2 (4 - 2.9) / 380
    const [swapCells, leanCells] = byCells.scores() as number[];
    expect(swapCells).toBeCloseTo(-4 / 380, 9);
    expect(leanCells).toBeCloseTo(2.2 / 380, 7); // 0.7 and 0.3 in float32
    expect(byCells.rows()).toBe(20);
  });

  it("weights each row by 1 / (N p), p = q / batch, and is the same under a uniform q as without one", () => {
    const uniform = cellBiasScore([clustering])(1, C);
    uniform.add({ ...fresh, inclusion: new Float64Array(20).fill(20 / 40), pool: 40 }, [leaning]);
    const none = cellBiasScore([clustering])(1, C);
    none.add(fresh, [leaning]);
    expect(uniform.scores()[0]).toBeCloseTo(none.scores()[0]!, 12);
    // half the inclusion probability: every u doubles, the score quadruples
    const halved = cellBiasScore([clustering])(1, C);
    halved.add({ ...fresh, inclusion: new Float64Array(20).fill(20 / 80), pool: 40 }, [leaning]);
    expect(halved.scores()[0]).toBeCloseTo(4 * none.scores()[0]!, 12);
    expect(() => none.add({ ...fresh, inclusion: new Float64Array(20) }, [leaning])).toThrow(/row 0 has inclusion probability 0/);
  });

  it("an unbiased family scores near 0 and a biased one near its squared cell bias, on draws from a pool", () => {
    // pool of 2,000 rows, cluster 0 half class 0 / half class 1; pi = (0.5, 0.5) there is unbiased, (0.7, 0.3) biased by 0.2 per item of cluster 0
    const N = 2000;
    const poolLabels = Int32Array.from({ length: N }, (_, i) => (i < N / 2 ? i % 2 : 1));
    const poolClusters = { k: 2, assignments: Int32Array.from({ length: N }, (_, i) => (i < N / 2 ? 0 : 1)) };
    const fair = (i: number, y: number) => (i < N / 2 ? 0.5 : y === 1 ? 1 : 0);
    const biased = (i: number, y: number) => (i < N / 2 ? (y === 0 ? 0.7 : 0.3) : y === 1 ? 1 : 0);
    const scorer = cellBiasScore([poolClusters])(2, C);
    let state = 12345;
    const next = () => ((state = (state * 1103515245 + 12345) % 2147483648), state / 2147483648);
    for (let batch = 0; batch < 20; batch++) {
      const drawn = Int32Array.from({ length: 50 }, () => Math.floor(next() * N));
      const proba = (f: (i: number, y: number) => number) => Float32Array.from({ length: 100 }, (_, j) => f(drawn[Math.floor(j / C)], j % C));
      scorer.add({ rows: drawn, labels: Int32Array.from(drawn, (i) => poolLabels[i]), inclusion: new Float64Array(50).fill(50 / N), pool: N }, [proba(fair), proba(biased)]);
    }
    const [fairScore, biasedScore] = scorer.scores() as number[];
    // biased: cells (0, 0) and (0, 1) each off by 0.2 x 1/2 of the items per item: 2 x 0.1^2 = 0.02
    expect(Math.abs(fairScore)).toBeLessThan(0.003);
    expect(biasedScore).toBeGreaterThan(0.015);
    expect(biasedScore).toBeLessThan(0.025);
  });

  it("clips the log-loss of a confident miss at ln(1e6)", () => {
    expect(meanLogLoss(Float32Array.of(1, 0, 0, 1), Int32Array.of(1, 1), 2)).toBeCloseTo(Math.log(1e6) / 2, 6);
  });

  it("agreeing: the first candidate unless every score prefers the same other one", () => {
    // log-loss prefers leaning, the cell bias swapping: no agreement, the first candidate
    const disagree = agreeingScore(logLossScore, cellBiasScore([clustering]))(2, C);
    expect(disagree.scores()).toEqual([null, null]);
    disagree.add(fresh, [swapping, leaning]);
    expect(disagree.scores()).toEqual([0, 1]);
    // swapped order: the first is now leaning, and still no agreement
    const swappedOrder = agreeingScore(logLossScore, cellBiasScore([clustering]))(2, C);
    swappedOrder.add(fresh, [leaning, swapping]);
    expect(swappedOrder.scores()).toEqual([0, 1]);
    // the oracle beats leaning on both: agreed
    const oracle = Float32Array.from({ length: 40 }, (_, j) => (j % C === labels[Math.floor(j / C)] ? 1 : 0));
    const agree = agreeingScore(logLossScore, cellBiasScore([clustering]))(2, C);
    agree.add(fresh, [leaning, oracle]);
    expect(agree.scores()).toEqual([1, 0]);
    expect(agree.rows()).toBe(20);
  });
});
