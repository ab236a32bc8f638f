import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RECOMMENDED } from "@/lib/cereal/method/recommended";
import { readJobFile } from "./grid-jobs";
import { runEstimatorsTable, withRecommended, type EstimatorsTableArgs } from "./estimator-commands";

/** a stand-in for `cereal simulate` that records its arguments and writes a run too short for any budget row */
function recorder() {
  const runs: string[][] = [];
  const runChild = async (args: string[]) => {
    runs.push(args);
    await writeFile(args[args.indexOf("--out") + 1], JSON.stringify({ config: { clusterings: ["k"] }, summary: { nLabels: 100 }, rounds: [] }));
  };
  return { runs, runChild };
}

const valueOf = (args: string[], flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);

/** a one-seed grid over digits with the fake surrogate, its jobs file in a fresh folder, only the rows named */
async function gridArgs(only: string): Promise<Omit<EstimatorsTableArgs, "runChild"> & { jobs: string }> {
  const jobs = join(await mkdtemp(join(tmpdir(), "cereal-estimators-")), "jobs.jsonl");
  return {
    bundle: "data/digits", clustering: "kmeans_k10", seeds: 1, budget: 100, batch: 50, seedSize: 50, steps: undefined,
    surrogate: "fake", parallel: 1, jobs, intervalDraws: undefined, out: undefined, only, reportOnly: false,
  };
}

describe("the estimators grid's runs", () => {
  it("run the recommended row at the recommended FixMatch steps, key each run by its steps, and resume", async () => {
    const base = await gridArgs("Recommended|Random (uniform), supervised");
    const { jobs } = base;
    const first = recorder();
    await runEstimatorsTable({ ...base, runChild: first.runChild });
    const byDesign = Object.fromEntries(first.runs.map((args) => [valueOf(args, "--design"), args]));
    expect(valueOf(byDesign.proportional, "--steps")).toBe(String(RECOMMENDED.fixmatchSteps));
    expect(valueOf(byDesign.uniform, "--steps")).toBeUndefined();
    const keys = (await readJobFile<{ key: string }>(jobs)).map((l) => l.key.split("|").slice(7).join("|")).sort();
    expect(keys).toEqual([`steps=${RECOMMENDED.fixmatchSteps}|Recommended: Hard NMI (proportional), FixMatch + trainer guard|seed=0`, "steps=default|Random (uniform), supervised|seed=0"]);

    // the same command again has nothing to run; --steps names another run of every row
    const again = recorder();
    await runEstimatorsTable({ ...base, runChild: again.runChild });
    expect(again.runs).toEqual([]);
    const quick = recorder();
    await runEstimatorsTable({ ...base, steps: 64, runChild: quick.runChild });
    expect(quick.runs.map((args) => valueOf(args, "--steps"))).toEqual(["64", "64"]);
  });

  it("run a lagged grid as runs of their own: --lag passed on and in the key, none at lag 0", async () => {
    const base = await gridArgs("Random (uniform), supervised");
    const { jobs } = base;
    const synchronous = recorder();
    await runEstimatorsTable({ ...base, runChild: synchronous.runChild });
    expect(valueOf(synchronous.runs[0], "--lag")).toBeUndefined();
    const lagged = recorder();
    await runEstimatorsTable({ ...base, lag: 2, runChild: lagged.runChild });
    expect(lagged.runs.map((args) => valueOf(args, "--lag"))).toEqual(["2"]);
    const keys = (await readJobFile<{ key: string }>(jobs)).map((l) => l.key.split("|").slice(7).join("|"));
    expect(keys).toEqual(["steps=default|Random (uniform), supervised|seed=0", "steps=default|lag=2|Random (uniform), supervised|seed=0"]);
  });

  it("run a warm-started grid as runs of their own: --warm-steps passed on and in the key", async () => {
    const base = await gridArgs("Recommended");
    const { jobs } = base;
    const cold = recorder();
    await runEstimatorsTable({ ...base, runChild: cold.runChild });
    expect(valueOf(cold.runs[0], "--warm-steps")).toBeUndefined();
    const warm = recorder();
    await runEstimatorsTable({ ...base, warmSteps: 256, runChild: warm.runChild });
    expect(warm.runs.map((args) => valueOf(args, "--warm-steps"))).toEqual(["256"]);
    const keys = (await readJobFile<{ key: string }>(jobs)).map((l) => l.key.split("|").slice(7, 9).join("|"));
    expect(keys).toEqual([`steps=${RECOMMENDED.fixmatchSteps}|Recommended: Hard NMI (proportional), FixMatch + trainer guard`, `steps=${RECOMMENDED.fixmatchSteps}|warm=256`]);
  });

  it("simulate --recommended fills in what the command line leaves out, FixMatch steps included", () => {
    expect(withRecommended({})).toMatchObject({ acquisition: "hardnmi", design: "proportional", fixmatch: true, "trainer-guard": true, estimator: "guarded", steps: "1024" });
    expect(withRecommended({ steps: "64", estimator: "soft" })).toMatchObject({ steps: "64", estimator: "soft", acquisition: "hardnmi" });
    // and the recommended warm start, where there is one (null: every round from scratch)
    expect(withRecommended<{ "warm-steps"?: string }>({})["warm-steps"]).toBe(RECOMMENDED.fixmatchWarmSteps === null ? undefined : String(RECOMMENDED.fixmatchWarmSteps));
    expect(withRecommended({ "warm-steps": "64" })["warm-steps"]).toBe("64");
    expect(withRecommended<{ "residual-when-calibrated"?: string }>({})["residual-when-calibrated"]).toBe(
      RECOMMENDED.residualWhenCalibrated === null ? undefined : String(RECOMMENDED.residualWhenCalibrated),
    );
    expect(withRecommended({ "residual-when-calibrated": "0.1" })["residual-when-calibrated"]).toBe("0.1");
  });
});
