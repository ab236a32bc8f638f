import { describe, expect, it } from "vitest";
import { METRIC_KEYS, type MetricValues } from "@/lib/metrics";
import { addAligned, movedToward } from "./fit-consensus";

const metrics = (v: number, fmi: number): MetricValues => ({ ...(Object.fromEntries(METRIC_KEYS.map((k) => [k, v])) as MetricValues), fmi });

describe("addAligned", () => {
  it("renames a fit's ids to the reference's before adding: a renamed copy adds the reference itself", () => {
    const k = 3;
    // rows' p(.|x) under the reference; the other fit calls id a what the reference calls (a + 1) % 3, and is less sure
    const reference = Float32Array.from([0.8, 0.1, 0.1, 0.1, 0.7, 0.2, 0.2, 0.2, 0.6, 0.9, 0.05, 0.05]);
    const renamed = new Float32Array(reference.length);
    for (let i = 0; i < 4; i++) for (let a = 0; a < k; a++) renamed[i * k + ((a + 1) % k)] = 0.5 * reference[i * k + a] + 0.5 / k;
    const sum = Float32Array.from(reference);
    addAligned(sum, reference, renamed, k);
    for (let j = 0; j < sum.length; j++) expect(sum[j]).toBeCloseTo(1.5 * reference[j] + 0.5 / k, 6);
  });
});

describe("movedToward", () => {
  it("moves every metric by the share that brings FMI to the target, within [0, 1]", () => {
    const mean = metrics(0.5, 0.4);
    const consensus = metrics(0.7, 0.6);
    const half = movedToward(mean, consensus, 0.5);
    for (const k of METRIC_KEYS) expect(half[k]).toBeCloseTo(k === "fmi" ? 0.5 : 0.6, 12);
    // a target beyond the consensus stops there, one below the mean stays at the mean
    expect(movedToward(mean, consensus, 0.9)).toEqual(consensus);
    expect(movedToward(mean, consensus, 0.1)).toEqual(mean);
    // the consensus below the mean: the share reads the same way
    expect(movedToward(consensus, mean, 0.45).nmi).toBeCloseTo(0.55, 12);
    // the two agree on FMI: nothing to read, the mean stays
    expect(movedToward(mean, metrics(0.9, 0.4), 0.8)).toEqual(mean);
  });
});
