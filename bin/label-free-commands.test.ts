import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readNpy, writeNpy } from "@/lib/data/npy";
import { nmi } from "@/lib/metrics";
import { createRandom } from "@/lib/random";
import { runAce, runCluster } from "./label-free-commands";

/** 90 items in 3 classes; spaces "a" and "b" show the classes, "c" is a rotated copy of "a". */
let dir = "";
const truth = Int32Array.from({ length: 90 }, (_, i) => i % 3);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "label-free-"));
  await mkdir(join(dir, "spaces"));
  await mkdir(join(dir, "clusterings"));
  const random = createRandom(2);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const a = Float32Array.from({ length: 180 }, (_, p) => (p % 2 === 0 ? 8 * truth[p >> 1] : 0) + gauss());
  const b = Float32Array.from({ length: 270 }, (_, p) => (p % 3 === 1 ? -9 * truth[Math.floor(p / 3)] : 0) + gauss());
  const c = Float32Array.from({ length: 180 }, (_, p) => (p % 2 === 0 ? a[p] - a[p + 1] : a[p] + a[p - 1]) / Math.SQRT2);
  await writeNpy(join(dir, "spaces/a.npy"), a, [90, 2]);
  await writeNpy(join(dir, "spaces/b.npy"), b, [90, 3]);
  await writeNpy(join(dir, "spaces/c.npy"), c, [90, 2]);
  const clusterings: Record<string, unknown> = {};
  for (const [q, share] of [0, 0.2, 0.4, 0.6].entries()) {
    const labels = Int32Array.from(truth, (t) => (random.next() < share ? random.int(3) : t));
    await writeNpy(join(dir, `clusterings/q${q}.npy`), labels, [90]);
    clusterings[`q${q}`] = { file: `clusterings/q${q}.npy`, space: ["a", "b", "c"][q % 3], K: 3, nmi: nmi(truth, labels) };
  }
  const manifest = {
    name: "tiny-spaces",
    N: 90,
    embeddings: "spaces/a.npy",
    spaces: { a: { file: "spaces/a.npy", D: 2 }, b: { file: "spaces/b.npy", D: 3 }, c: { file: "spaces/c.npy", D: 2 } },
    clusterings,
  };
  await writeFile(join(dir, "manifest.json"), JSON.stringify(manifest));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true });
});

describe("cereal ace", () => {
  it("prints the table and the Spearman correlations with the true NMI", async () => {
    const lines: string[] = [];
    await runAce(["--bundle", dir, "--dip-simulations", "99"], (l) => lines.push(l));
    const text = lines.join("\n");
    expect(text).toMatch(/^silhouette of 4 clusterings in 3 spaces, N = 90/);
    expect(lines.filter((l) => /^q\d /.test(l))).toHaveLength(4);
    // the clusterings degrade with q, and every score sees it
    expect(text).toMatch(/ACE score {2}1\.0000/);
    expect(text).toMatch(/paired silhouette {2}1\.0000/);
  });

  it("refuses an unknown measure", async () => {
    await expect(runAce(["--bundle", dir, "--measure", "dunn"])).rejects.toThrow(/--measure must be one of silhouette, davies-bouldin, calinski-harabasz/);
  });
});

describe("cereal cluster", () => {
  it("writes the labels as int32 .npy and prints the running time", async () => {
    const out = join(dir, "kmeans.npy");
    const lines: string[] = [];
    await runCluster(["--bundle", dir, "--space", "b", "--method", "kmeans", "--k", "3", "--seed", "4", "--out", out], (l) => lines.push(l));
    expect(lines[0]).toMatch(/^kmeans k=3 seed=4 on b \(N = 90, D = 3\): \d+\.\d\d s -> /);
    const labels = await readNpy(out);
    expect(labels.shape).toEqual([90]);
    expect(nmi(truth, labels.data)).toBeGreaterThan(0.95);
  });
});
