/**
 * Internal metrics against fixtures/internal.json (scikit-learn 1.2.1) to 1e-6 relative, plus
 * the sampling path and degenerate inputs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { calinskiHarabasz } from "./calinski-harabasz";
import { daviesBouldin } from "./davies-bouldin";
import { createRandom } from "@/lib/random";
import { silhouette, silhouetteSamples } from "./silhouette";

interface InternalCase {
  id: number;
  kind: string;
  labels?: number[];
  X?: number[][];
  space?: string;
  clustering?: string;
  expected: Record<"silhouette_euclidean" | "silhouette_cosine" | "calinski_harabasz" | "davies_bouldin", number>;
}

const fixtures = new URL("./fixtures/", import.meta.url);
const oracle = JSON.parse(readFileSync(new URL("internal.json", fixtures), "utf8")) as { cases: InternalCase[] };

/**
 * Reads a little-endian .npy of float32 or int32 into C (row-major) order. Fortran-order files
 * occur in the shared bundle (digits-spaces/spaces/isomap8.npy), so they are transposed here.
 */
function readNpy(path: URL): Float32Array | Int32Array {
  const buf = readFileSync(path);
  const headerLength = buf.readUInt16LE(8);
  const header = buf.subarray(10, 10 + headerLength).toString("latin1");
  const descr = /'descr':\s*'([^']+)'/.exec(header)![1];
  const fortran = /'fortran_order':\s*True/.test(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)![1].split(",").filter((s) => s.trim()).map(Number);
  const body = buf.subarray(10 + headerLength);
  const copy = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
  let data: Float32Array | Int32Array;
  if (descr === "<f4") data = new Float32Array(copy);
  else if (descr === "<i4") data = new Int32Array(copy);
  else throw new Error(`unsupported dtype ${descr}`);
  if (!fortran || shape.length < 2) return data;
  const [rows, cols] = shape;
  const c = data instanceof Float32Array ? new Float32Array(data.length) : new Int32Array(data.length);
  for (let r = 0; r < rows; r++) for (let k = 0; k < cols; k++) c[r * cols + k] = data[k * rows + r];
  return c;
}

function load(c: InternalCase): { x: Float64Array | Float32Array; labels: ArrayLike<number> } {
  if (c.X && c.labels) return { x: Float64Array.from(c.X.flat()), labels: c.labels };
  return {
    x: readNpy(new URL(`digits-spaces/spaces/${c.space}.npy`, fixtures)) as Float32Array,
    labels: readNpy(new URL(`digits-spaces/clusterings/${c.clustering}.npy`, fixtures)),
  };
}

function closeRel(actual: number, expected: number, what: string) {
  const tol = 1e-6 * Math.max(Math.abs(expected), 1e-12);
  // values that are exactly 0 in sklearn (e.g. a cosine silhouette of 0.0) get an absolute 1e-12
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(Math.max(tol, 1e-12));
}

describe("internal metrics: scikit-learn oracle (fixtures/internal.json)", () => {
  it("has all 36 cases", () => {
    expect(oracle.cases).toHaveLength(36);
  });

  it.each(oracle.cases.map((c) => [c.id, c.kind, c] as const))("case %i (%s)", (_id, _kind, c) => {
    const { x, labels } = load(c);
    const e = c.expected;
    closeRel(silhouette(x, labels).score, e.silhouette_euclidean, "silhouette euclidean");
    closeRel(silhouette(x, labels, { metric: "cosine" }).score, e.silhouette_cosine, "silhouette cosine");
    closeRel(calinskiHarabasz(x, labels), e.calinski_harabasz, "calinski-harabasz");
    closeRel(daviesBouldin(x, labels), e.davies_bouldin, "davies-bouldin");
  });
});

describe("silhouette", () => {
  it.each(["euclidean", "cosine"] as const)("matches a direct O(N^2) evaluation of the definition (%s)", (metric) => {
    const random = createRandom(31);
    const n = 57;
    const d = 3;
    const x = Float32Array.from({ length: n * d }, () => random.next() * 4 - 1);
    x.fill(0, 5 * d, 6 * d); // a zero vector: cosine distance 1 to everything
    const labels = Array.from({ length: n }, (_, i) => (i < 2 ? i : random.int(4)));
    labels[n - 1] = 9; // a singleton cluster scores 0
    const dist = (i: number, j: number) => {
      let s = 0;
      let dotIJ = 0;
      let ni = 0;
      let nj = 0;
      for (let t = 0; t < d; t++) {
        s += (x[i * d + t] - x[j * d + t]) ** 2;
        dotIJ += x[i * d + t] * x[j * d + t];
        ni += x[i * d + t] ** 2;
        nj += x[j * d + t] ** 2;
      }
      if (metric === "euclidean") return Math.sqrt(s);
      return ni === 0 || nj === 0 ? 1 : Math.min(Math.max(1 - dotIJ / Math.sqrt(ni * nj), 0), 2);
    };
    const s = silhouetteSamples(x, labels, metric);
    for (let i = 0; i < n; i++) {
      const byCluster = new Map<number, number[]>();
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        if (!byCluster.has(labels[j])) byCluster.set(labels[j], []);
        byCluster.get(labels[j])!.push(dist(i, j));
      }
      const meanOf = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
      const own = byCluster.get(labels[i]);
      if (!own) {
        expect(s[i]).toBe(0);
        continue;
      }
      const a = meanOf(own);
      const b = Math.min(...[...byCluster].filter(([c]) => c !== labels[i]).map(([, v]) => meanOf(v)));
      expect(s[i]).toBeCloseTo((b - a) / Math.max(a, b), 10);
    }
  });

  it("samples above maxExact with a seed, reports the sample size, and stays near the exact score", () => {
    const random = createRandom(2);
    const n = 3000;
    const labels = Array.from({ length: n }, () => random.int(3));
    const x = Float32Array.from({ length: n * 2 }, (_, i) => labels[Math.floor(i / 2)] * 3 + random.next() * 2);
    const exact = silhouette(x, labels);
    expect(exact).toMatchObject({ sampleSize: n, sampled: false });
    const a = silhouette(x, labels, { maxExact: 1000, seed: 5 });
    const b = silhouette(x, labels, { maxExact: 1000, seed: 5 });
    const c = silhouette(x, labels, { maxExact: 1000, seed: 6 });
    expect(a).toMatchObject({ sampleSize: 1000, sampled: true });
    expect(b.score).toBe(a.score);
    expect(c.score).not.toBe(a.score);
    expect(Math.abs(a.score - exact.score)).toBeLessThan(0.02);
    expect(silhouette(x, labels, { sampleSize: 500 }).sampleSize).toBe(500);
    // cosine is exact at any N (O(N K D)) unless a sample is asked for
    expect(silhouette(x, labels, { metric: "cosine", maxExact: 1000 })).toMatchObject({ sampleSize: n, sampled: false });
  });

  it("rejects fewer than 2 or more than N - 1 clusters, and shapes that do not divide", () => {
    const x = new Float32Array(8);
    expect(() => silhouette(x, [0, 0, 0, 0])).toThrow(/number of labels is 1/);
    expect(() => calinskiHarabasz(x, [0, 1, 2, 3])).toThrow(RangeError);
    expect(() => daviesBouldin(new Float32Array(7), [0, 1, 0])).toThrow(RangeError);
  });
});

describe("Calinski-Harabasz and Davies-Bouldin", () => {
  it("follow sklearn's limit cases: CH 1.0 with no within dispersion, DB 0.0 with coinciding points", () => {
    const x = Float32Array.from([0, 0, 0, 0, 1, 1, 1, 1, 5, 5]);
    expect(calinskiHarabasz(x, [0, 0, 1, 1, 2])).toBe(1);
    expect(daviesBouldin(x, [0, 0, 1, 1, 2])).toBe(0);
  });

  it("score two well separated blobs as well clustered", () => {
    const x = Float32Array.from([0, 0, 0, 1, 1, 0, 10, 10, 10, 11, 11, 10]);
    const labels = [0, 0, 0, 1, 1, 1];
    expect(calinskiHarabasz(x, labels)).toBeGreaterThan(100);
    expect(daviesBouldin(x, labels)).toBeLessThan(0.1);
  });
});
