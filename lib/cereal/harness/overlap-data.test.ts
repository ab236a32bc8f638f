import { describe, expect, it } from "vitest";
import { kMeans } from "@/lib/clustering/kmeans";
import { overlappingClasses, type OverlapOptions } from "./overlap-data";

const base = { n: 3000, d: 4, classes: 2, spread: 3, seed: 5 };

/** per class, the variance of each dimension around the class mean */
function classVariances(embeddings: Float32Array, labels: Int32Array, means: Float32Array, d: number): number[][] {
  const sums = [new Array<number>(d).fill(0), new Array<number>(d).fill(0)];
  const counts = [0, 0];
  labels.forEach((y, i) => {
    counts[y]++;
    for (let j = 0; j < d; j++) sums[y][j] += (embeddings[i * d + j] - means[y * d + j]) ** 2;
  });
  return sums.map((row, y) => row.map((v) => v / counts[y]));
}

/** the rows under `options`, once the option's neutral value left the rows as they were and the labels and means stayed */
function shaped(neutral: Partial<OverlapOptions>, options: Partial<OverlapOptions>) {
  const plain = overlappingClasses(base);
  expect(overlappingClasses({ ...base, ...neutral }).embeddings).toEqual(plain.embeddings);
  const rows = overlappingClasses({ ...base, ...options });
  expect(rows.labels).toEqual(plain.labels);
  expect(rows.means).toEqual(plain.means);
  return { plain, rows };
}

describe("overlapping Gaussian classes", () => {
  it("anisotropy and warp leave the labels and means as they were, and change the rows' shape", () => {
    const plain = overlappingClasses(base);
    const aniso = overlappingClasses({ ...base, anisotropy: 0.6 });
    const warped = overlappingClasses({ ...base, warp: 2 });
    expect(overlappingClasses({ ...base, anisotropy: 0, warp: 0 }).embeddings).toEqual(plain.embeddings);
    for (const other of [aniso, warped]) {
      expect(other.labels).toEqual(plain.labels);
      expect(other.means).toEqual(plain.means);
    }
    // unit noise: every variance near 1; anisotropic: scales in [e^-0.6, e^0.6], far from 1 somewhere
    const unit = classVariances(plain.embeddings, plain.labels, plain.means, base.d).flat();
    expect(unit.every((v) => v > 0.85 && v < 1.15)).toBe(true);
    const scaled = classVariances(aniso.embeddings, aniso.labels, aniso.means, base.d).flat();
    expect(scaled.every((v) => v > Math.exp(-1.2) * 0.85 && v < Math.exp(1.2) * 1.15)).toBe(true);
    expect(Math.max(...scaled.map((v) => Math.abs(Math.log(v))))).toBeGreaterThan(0.3);
    // the warp moves every row by at most w = 2 per dimension, and moves them
    let moved = 0;
    for (let i = 0; i < plain.embeddings.length; i++) {
      const shift = Math.abs(warped.embeddings[i] - plain.embeddings[i]);
      expect(shift).toBeLessThanOrEqual(2 + 1e-5);
      moved += shift;
    }
    expect(moved / plain.embeddings.length).toBeGreaterThan(0.5);
  });

  it("modes make each class a mixture of Gaussians around offset centres, labels and means as they were", () => {
    const { rows: modal } = shaped({ modes: 1 }, { modes: 3 });
    // around the class mean: unit noise plus the modes' offsets, N(0, 3^2) each
    const variances = classVariances(modal.embeddings, modal.labels, modal.means, base.d).flat();
    expect(variances.reduce((s, v) => s + v, 0) / variances.length).toBeGreaterThan(3);
    // each row sits within unit noise of one of three centres: three means leave about d = 4 of squared distance a row
    const ofClass0 = modal.embeddings.filter((_, at) => modal.labels[Math.floor(at / base.d)] === 0);
    const rows = ofClass0.length / base.d;
    expect(kMeans(ofClass0, rows, base.d, { k: 3, seed: 0, restarts: 3 }).inertia / rows).toBeLessThan(base.d * 1.2);
    expect(kMeans(ofClass0, rows, base.d, { k: 1, seed: 0, restarts: 1 }).inertia / rows).toBeGreaterThan(base.d * 3);
    expect(() => overlappingClasses({ ...base, modes: 0 })).toThrow(/modes must be a whole number >= 1/);
  });

  it("tails make the noise a Student t: labels and means as they were, far rows far more often than Gaussian noise allows", () => {
    const { plain, rows: heavy } = shaped({ tails: 0 }, { tails: 3 });
    // share of coordinates more than 4 from their class mean: Gaussian 6e-5, t with 3 degrees of freedom 0.028
    const far = (x: ReturnType<typeof overlappingClasses>) =>
      Array.from(x.embeddings).filter((v, at) => Math.abs(v - x.means[x.labels[Math.floor(at / base.d)] * base.d + (at % base.d)]) > 4).length / x.embeddings.length;
    expect(far(plain)).toBeLessThan(0.002);
    expect(far(heavy)).toBeGreaterThan(0.015);
    expect(() => overlappingClasses({ ...base, tails: 2.5 })).toThrow(/tails must be a whole number/);
  });
});
