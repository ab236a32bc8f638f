import { describe, expect, it } from "vitest";
import { Random } from "@/lib/random/named-streams";
import { createGaussianMixtureSurrogate, fitIsotropicMixture } from "./gaussian-mixture";

/** n rows in 2-D: class 0 (share 0.3) around (0, 0), class 1 around (delta, 0), standard deviation sigma */
function twoGaussians(n: number, delta: number, sigma: number) {
  const random = Random.from(1, "mixture-test");
  const data = new Float32Array(n * 2);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    labels[i] = random.next() < 0.3 ? 0 : 1;
    data[i * 2] = labels[i] * delta + sigma * random.normal();
    data[i * 2 + 1] = sigma * random.normal();
  }
  return { embeddings: { data, n, d: 2 }, labels };
}

describe("semi-supervised isotropic Gaussian mixture", () => {
  it("recovers the means, shared variance and priors from 4 labels and 2,000 unlabeled rows", () => {
    const { embeddings, labels } = twoGaussians(2000, 3, 1);
    const rows = Int32Array.from({ length: 2000 }, (_, i) => i);
    // the first two rows of each class
    const labeled = Int32Array.from([0, 1].flatMap((y) => rows.filter((r) => labels[r] === y).slice(0, 2)));
    const { parameters, iterations } = fitIsotropicMixture(embeddings, 2, { rows: labeled, labels: Int32Array.from(labeled, (r) => labels[r]) }, rows);
    expect(iterations).toBeGreaterThan(1);
    // class c's mean is row c of the C x D means: (0, 0) and (3, 0), each within about 3 standard errors
    for (const [value, expected] of [[parameters.means[0], 0], [parameters.means[1], 0], [parameters.means[2], 3], [parameters.means[3], 0]]) {
      expect(Math.abs(value - expected)).toBeLessThan(0.15);
    }
    expect(parameters.variance).toBeGreaterThan(0.9);
    expect(parameters.variance).toBeLessThan(1.1);
    const share0 = labels.reduce((a, y) => a + (y === 0 ? 1 : 0), 0) / labels.length;
    expect(Math.abs(parameters.priors[0] - share0)).toBeLessThan(0.03);
  });

  it("predicts calibrated posteriors (Bayes' accuracy, confidence = accuracy) and is unusable after dispose", async () => {
    const { embeddings, labels } = twoGaussians(3000, 2, 1);
    const surrogate = createGaussianMixtureSurrogate(embeddings, 2);
    await expect(surrogate.predictProba(Int32Array.of(0))).rejects.toThrow(/before fit/);
    const labeled = Int32Array.from({ length: 20 }, (_, i) => i);
    const unlabeled = Int32Array.from({ length: 2980 }, (_, i) => i + 20);
    const report = await surrogate.fit({ rows: labeled, labels: Int32Array.from(labeled, (r) => labels[r]) }, unlabeled, { seed: 0, fixmatch: true });
    expect(report.backend).toBe("em");
    const p = await surrogate.predictProba(unlabeled);
    let right = 0;
    let confidence = 0;
    for (let i = 0; i < unlabeled.length; i++) {
      expect(p[i * 2] + p[i * 2 + 1]).toBeCloseTo(1, 5);
      const guess = p[i * 2 + 1] > p[i * 2] ? 1 : 0;
      if (guess === labels[unlabeled[i]]) right++;
      confidence += Math.max(p[i * 2], p[i * 2 + 1]);
    }
    // classes 2 sigma apart: the Bayes classifier is about 86% right (more with the 0.3 / 0.7 priors)
    expect(right / unlabeled.length).toBeGreaterThan(0.84);
    expect(Math.abs(confidence / unlabeled.length - right / unlabeled.length)).toBeLessThan(0.02);
    const mc = await surrogate.predictProbaMc(unlabeled.subarray(0, 10), 3, 0);
    expect(Array.from(mc.subarray(40, 60))).toEqual(Array.from(p.subarray(0, 20)));
    surrogate.dispose();
    await expect(surrogate.predictProba(Int32Array.of(0))).rejects.toThrow(/after dispose/);
  });
});
