import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJobFile } from "./grid-jobs";
import { runPairwiseTable, type PairwiseTableArgs } from "./pairwise-commands";
import type { PairwiseGridRun } from "@/lib/cereal/harness/pairwise-grid";

const valueOf = (args: string[], flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);

/** a stand-in for `cereal simulate --mode pairwise`: AEC(NMI) 0.1 for random pairs, 0.2 for the others; 3 rounds, 2 of 3 intervals hold */
function recorder() {
  const runs: string[][] = [];
  const runChild = async (args: string[]) => {
    runs.push(args);
    const nmi = valueOf(args, "--pair-design") === "random" ? 0.1 : 0.2;
    const summary = { aecPer1000Labels: { nmi, ami: nmi, ari: nmi }, intervalCoverage: { nmi: 2 / 3, ami: 1, ari: 1 }, rounds: 3, nLabels: 600 };
    await writeFile(args[args.indexOf("--out") + 1], JSON.stringify({ config: { clusterings: ["k"] }, summary, rounds: [] }));
  };
  return { runs, runChild };
}

describe("the pairwise grid", () => {
  it("runs every pair design in pairwise mode per seed, tables them against random pairs, and resumes", async () => {
    const jobs = join(await mkdtemp(join(tmpdir(), "cereal-pairwise-")), "jobs.jsonl");
    const base: Omit<PairwiseTableArgs, "runChild"> = {
      bundle: "data/digits", clustering: "kmeans_k10", seeds: 2, budget: 600, batch: 200, seedSize: 200, surrogate: "fake", parallel: 1, jobs, intervalDraws: undefined, out: undefined, reportOnly: false, pace: undefined,
    };
    const first = recorder();
    const printed: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (printed.push(chunk), true)) as typeof process.stdout.write;
    try {
      await runPairwiseTable({ ...base, runChild: first.runChild });
    } finally {
      process.stdout.write = write;
    }
    expect(first.runs).toHaveLength(6);
    expect(first.runs.every((args) => valueOf(args, "--mode") === "pairwise" && valueOf(args, "--batch") === "200")).toBe(true);
    expect(first.runs.slice(0, 3).map((args) => [valueOf(args, "--pair-design"), valueOf(args, "--uniform-share")])).toEqual([["random", "0"], ["uncertain", "0.5"], ["anchor", "0.5"]]);
    const lines = await readJobFile<PairwiseGridRun>(jobs);
    expect(lines[0]).toMatchObject({ label: "random pairs", seed: 0, aecPer1000Labels: { nmi: 0.1 }, covered: 2, count: 3 });
    const table = printed.join("");
    expect(table).toContain("| random pairs | 2 | 0.1000 ± 0.0000 | 0.1000 ± 0.0000 | 0.1000 ± 0.0000 | 1.00x | 0.667 (4/6); by seed [0.667, 0.667] |");
    expect(table).toContain("| anchor pairs, half uniform | 2 | 0.2000 ± 0.0000 | 0.2000 ± 0.0000 | 0.2000 ± 0.0000 | 2.00x |");
    const again = recorder();
    printed.length = 0;
    process.stdout.write = ((chunk: string) => (printed.push(chunk), true)) as typeof process.stdout.write;
    try {
      // at 3.6 s an answer, 1000 answers take one hour: AEC per annotator-hour = AEC per 1000 answers
      await runPairwiseTable({ ...base, reportOnly: true, pace: { seconds: 3.6, source: "given" }, runChild: again.runChild });
    } finally {
      process.stdout.write = write;
    }
    expect(printed.join("")).toContain("| 1.00x | 0.667 (4/6); by seed [0.667, 0.667] | 0.1000 ± 0.0000 |");
    expect(printed.join("")).toContain("Seconds per answer: 3.6 (given).");
    await runPairwiseTable({ ...base, runChild: again.runChild });
    expect(again.runs).toEqual([]);
  });
});
