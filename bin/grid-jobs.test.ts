import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SimulationResult } from "@/lib/cereal/harness/simulate";
import { readJobFile, runGridJobs, type GridJob } from "./grid-jobs";

const job = (seed: number): GridJob => ({ key: `k|seed=${seed}`, label: "Random", seed, argv: ["simulate", "--seed", String(seed)] });

/** a stand-in for `cereal simulate`: writes a result whose AEC is the seed, and fails for seed 2 */
async function fakeChild(args: string[]): Promise<void> {
  const seed = Number(args[args.indexOf("--seed") + 1]);
  if (seed === 2) throw new Error("simulate exited with 1: out of memory");
  await writeFile(args[args.indexOf("--out") + 1], JSON.stringify({ summary: { aec: { nmi: seed } } }));
}

describe("grid jobs", () => {
  it("appends one line per finished run, counts failures, and reads the file back for a resume", async () => {
    const jobs = join(await mkdtemp(join(tmpdir(), "cereal-grid-test-")), "jobs.jsonl");
    expect(await readJobFile(jobs)).toEqual([]);
    const seen: string[][] = [];
    const failures = await runGridJobs({
      jobs,
      todo: [0, 1, 2, 3].map(job),
      parallel: 2,
      runChild: (args) => (seen.push(args), fakeChild(args)),
      line: (j, result: SimulationResult, seconds) => ({ key: j.key, aec: result.summary.aec.nmi, seconds }),
      describe: () => "",
    });
    expect(failures).toBe(1);
    // the job's arguments, then --out in a scratch folder
    expect(seen.map((a) => a.slice(0, 3))).toEqual([0, 1, 2, 3].map((s) => ["simulate", "--seed", String(s)]));
    expect(seen.every((a) => a[3] === "--out")).toBe(true);
    const lines = await readJobFile<{ key: string; aec: number }>(jobs);
    expect(lines.map((l) => [l.key, l.aec]).sort()).toEqual([
      ["k|seed=0", 0],
      ["k|seed=1", 1],
      ["k|seed=3", 3],
    ]);
    // a torn last line (a run killed mid-append) is left out, so that run is redone
    await appendFile(jobs, '{"key":"k|seed=2","ae');
    expect((await readJobFile<{ key: string }>(jobs)).map((l) => l.key)).not.toContain("k|seed=2");
    expect((await readFile(jobs, "utf-8")).split("\n")).toHaveLength(4);
  });
});
