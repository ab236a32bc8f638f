import { describe, expect, it } from "vitest";
import { METRIC_KEYS, type MetricValues } from "@/lib/metrics";
import { stopDecision } from "../method/stop-rule";
import { coverageTable, coveredAt, poolSizeOf, projectedTotal, replayStopRule, runAsEstimator, stopOutcome, stopRuleTable, versusRandomTable } from "./run-tables";
import type { RoundRecord, SimulationResult } from "./simulate";

const values = (nmi: number) => Object.fromEntries(METRIC_KEYS.map((k) => [k, nmi])) as MetricValues;
const TRUTH = 0.5;

interface Point {
  readonly n: number;
  readonly estimate: number;
  readonly half: number;
  readonly converged?: boolean;
  readonly needed?: number | null;
}

/** a one-clustering run ("c") whose rounds have the given estimates, interval half-widths and stop records */
function run(seed: number, points: readonly Point[], estimator = "guarded"): SimulationResult {
  const rounds = points.map(
    (p, i) =>
      ({
        round: i,
        nLabels: p.n,
        estimate: { c: values(p.estimate) },
        interval: { c: Object.fromEntries(Object.keys(values(0)).map((k) => [k, [p.estimate - p.half, p.estimate + p.half]])) },
        true: { c: values(TRUTH) },
        absErr: { c: values(Math.abs(p.estimate - TRUTH)) },
        stop: { c: Object.fromEntries(Object.keys(values(0)).map((k) => [k, { converged: p.converged ?? false, labelsStillNeeded: p.needed ?? null }])) },
        byEstimator: { [estimator]: { estimate: { c: values(p.estimate) }, absErr: { c: values(Math.abs(p.estimate - TRUTH)) }, interval: null } },
      }) as unknown as RoundRecord,
  );
  return { config: { seed, clusterings: ["c"], estimator }, rounds, draws: [], summary: {} } as unknown as SimulationResult;
}

describe("run tables (runs as the unit)", () => {
  it("coverage is read at the round with exactly B labels, one trial per run", () => {
    const held = run(0, [
      { n: 200, estimate: 0.52, half: 0.05 },
      { n: 500, estimate: 0.6, half: 0.05 },
    ]);
    expect(coveredAt(held, "c", 200)).toBe(true);
    expect(coveredAt(held, "c", 500)).toBe(false);
    expect(coveredAt(held, "c", 1000)).toBeNull();
    const table = coverageTable(new Map([["b", [held, run(1, [{ n: 200, estimate: 0.7, half: 0.05 }])]]]), [200, 500]);
    expect(table).toContain("| b | c | 200 | 2 | 1/2 = 0.500");
    expect(table).toContain("| b | c | 500 | 1 | 0/1 = 0.000");
    expect(table).toContain("| b | pooled | 200, 500 | 2 | 1/3 = 0.333");
  });

  it("reads a compared estimator as the primary: its estimates and intervals, the stop rule replayed over them", () => {
    const widths = [0.1, 0.015, 0.012, 0.011, 0.01];
    const primary = run(
      0,
      widths.map((w, i) => ({ n: 100 * (i + 1), estimate: 0.5, half: 0.1, converged: false })),
    );
    const rounds = primary.rounds.map((round, i) => ({
      ...round,
      byEstimator: {
        ...round.byEstimator,
        wide: {
          estimate: { c: Object.fromEntries(METRIC_KEYS.map((k) => [k, 0.501])) },
          absErr: { c: values(0.001) },
          interval: { c: Object.fromEntries(METRIC_KEYS.map((k) => [k, [0.501 - widths[i] / 2, 0.501 + widths[i] / 2]])) },
        },
      },
    })) as unknown as RoundRecord[];
    const as = runAsEstimator({ ...primary, rounds }, "wide");
    expect(as.rounds.map((r) => r.estimate.c.nmi)).toEqual(widths.map(() => 0.501));
    // narrower than 0.02 from the second round; the move is read over the round and the 3 before it, so it fires at the fourth
    expect(stopOutcome(as, "c").firedAt).toBe(400);
    expect(stopOutcome(primary, "c").firedAt).toBeNull();
    expect(() => runAsEstimator(primary, "wide")).toThrow(/--compare wide/);
  });

  it("replays the stop rule over the recorded intervals, with the pool the run drew from", () => {
    // widths 0.4 / sqrt(n) reach 0.02 at 400 labels; the pool of 300 items has fewer
    const points = [50, 75, 100, 125].map((n) => ({ n, estimate: 0.5, half: 0.2 / Math.sqrt(n), needed: 7 }));
    const recorded = run(0, points);
    const withItems = { ...recorded, config: { ...recorded.config, items: 300 } };
    expect(poolSizeOf(withItems)).toBe(300);
    const replayed = replayStopRule(withItems);
    expect(replayed.rounds.map((r) => r.stop!.c.nmi.labelsStillNeeded)).toEqual([null, 300 - 75, 300 - 100, 300 - 125]);
    // every round's record is the rule's on the history up to it
    const history = recorded.rounds.map((r) => ({ nLabels: r.nLabels, estimate: r.estimate.c.nmi, interval: r.interval!.c.nmi }));
    expect(replayed.rounds[2].stop!.c.nmi).toEqual({ converged: false, labelsStillNeeded: stopDecision(history.slice(0, 3), { poolSize: 300 }).labelsStillNeeded });
    // a run recorded before `items`: the pool read off its uniform seed stage (m rows, q = m / N each)
    const seedStage = Array.from({ length: 30 }, (_, i) => ({ row: i, design: "uniform", score: null, q: 30 / 300, order: i, round: 0 }));
    const legacy = { ...recorded, draws: [...seedStage, { row: 99, design: "proportional", score: 1, q: 0.3, order: 30, round: 1 }] } as unknown as SimulationResult;
    expect(poolSizeOf(legacy)).toBe(300);
    expect(replayStopRule(legacy).rounds.map((r) => r.stop!.c.nmi.labelsStillNeeded)).toEqual([null, 225, 200, 175]);
    // neither: a pool without end
    expect(poolSizeOf(recorded)).toBeUndefined();
    expect(replayStopRule(recorded).rounds.map((r) => r.stop!.c.nmi.labelsStillNeeded)).toEqual([null, 400 - 75, 400 - 100, 400 - 125]);
  });

  it("the stop rule is judged at the first round it fires", () => {
    const r = run(0, [
      { n: 100, estimate: 0.4, half: 0.05, needed: 400 },
      { n: 150, estimate: 0.49, half: 0.009, converged: true },
      { n: 200, estimate: 0.45, half: 0.005, converged: true },
    ]);
    const outcome = stopOutcome(r, "c");
    expect(outcome.firedAt).toBe(150);
    expect(outcome.absErr).toBeCloseTo(0.01, 12);
    expect(outcome.covered).toBe(false);
    expect(outcome.narrowAt).toBe(150);
    expect(projectedTotal(r.rounds, "c", 100)).toBe(500);
    expect(projectedTotal(r.rounds, "c", 150)).toBeNull();
    expect(stopOutcome(run(1, [{ n: 100, estimate: 0.5, half: 0.1 }]), "c")).toEqual({ firedAt: null, absErr: null, covered: null, narrowAt: null });
  });

  it("the stop-rule table counts firing before the budget, the error target and the projection against what was needed", () => {
    const fires = run(0, [
      { n: 200, estimate: 0.5, half: 0.05, needed: 200 },
      { n: 300, estimate: 0.505, half: 0.005, converged: true },
      { n: 400, estimate: 0.505, half: 0.005, converged: true },
    ]);
    const late = run(1, [
      { n: 200, estimate: 0.45, half: 0.05, needed: 100 },
      { n: 300, estimate: 0.45, half: 0.05, needed: 100 },
      { n: 400, estimate: 0.45, half: 0.05 },
    ]);
    const table = stopRuleTable(new Map([["b", [fires, late]]]), 400);
    const row = table.split("\n").find((l) => l.startsWith("| b | c |"))!;
    const cells = row.split(" | ");
    expect(cells[3]).toMatch(/^1\/2 = 0\.500/);
    expect(cells[4]).toBe("300 (300-300)");
    expect(cells[5]).toMatch(/^1\/1 = 1\.000/);
    expect(cells[7]).toBe("1/1");
    // (400 - 300) / 2 runs
    expect(cells[8]).toBe("50");
    // fires: projected 200 + 200 = 400 against 300 needed; late: never narrow, projected 300 <= 400
    expect(cells[9]).toBe("1 narrow by 400: projected / needed median 1.33 (quartiles 1.33-1.33, range 1.33-1.33); 1 not narrow by 400, 1 of them projected <= 400");
  });

  it("AEC against Random pairs runs by seed", () => {
    const flat = (seed: number, err: number, estimator: string) =>
      run(
        seed,
        [0, 1, 2].map((i) => ({ n: 100 + 100 * i, estimate: TRUTH + err, half: 0.1 })),
        estimator,
      );
    const table = versusRandomTable(
      new Map([["b", [flat(0, 0.01, "guarded"), flat(1, 0.02, "guarded"), flat(2, 0.01, "guarded")]]]),
      new Map([["b", [flat(0, 0.04, "labels"), flat(1, 0.04, "labels")]]]),
      300,
    );
    // two pairs: AEC = err x 0.2 thousand labels; 0.003 against 0.008
    expect(table).toContain("| b | 300 | 2 | 0.0030 (0.0080) | 0.38x | 0.38 ± 0.13 | -0.0050 ± 0.0010 | 2/2 |");
  });
});
