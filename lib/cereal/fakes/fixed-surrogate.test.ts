import { describe, expect, it } from "vitest";
import { parseNpy, encodeNpy } from "@/lib/data/npy";
import { createFixedSurrogate, probaFromNpy } from "./fixed-surrogate";

const npy = (data: Float32Array | Int32Array, shape: number[]) => parseNpy(encodeNpy(data, shape));

describe("probaFromNpy", () => {
  it("reads items x classes probabilities, and the fixed surrogate returns each row's", async () => {
    const proba = probaFromNpy(npy(Float32Array.from([0.7, 0.3, 0.1, 0.9, 0.5, 0.5]), [3, 2]), 3, 2, "posterior.npy");
    const surrogate = createFixedSurrogate(proba, 2);
    expect(Array.from(await surrogate.predictProba(Int32Array.from([2, 0])))).toEqual([0.5, 0.5, Math.fround(0.7), Math.fround(0.3)]);
  });

  it("says what is wrong: the shape, the type, a row that is not a distribution", () => {
    expect(() => probaFromNpy(npy(new Float32Array(6).fill(0.5), [3, 2]), 4, 2, "p.npy")).toThrow("p.npy: expected float32 probabilities of shape [4, 2] (items x classes), got float32 [3, 2]");
    expect(() => probaFromNpy(npy(new Float32Array(6).fill(0.5), [2, 3]), 3, 2, "p.npy")).toThrow("got float32 [2, 3]");
    expect(() => probaFromNpy(npy(Int32Array.from([1, 0, 0, 1]), [2, 2]), 2, 2, "p.npy")).toThrow("got int32 [2, 2]");
    expect(() => probaFromNpy(npy(Float32Array.from([0.5, 0.5, 0.5, 0.6]), [2, 2]), 2, 2, "p.npy")).toThrow("p.npy: row 1 sums to");
    expect(() => probaFromNpy(npy(Float32Array.from([1.5, -0.5]), [1, 2]), 1, 2, "p.npy")).toThrow("p.npy: row 0 holds -0.5, not a probability");
    expect(() => probaFromNpy(npy(Float32Array.from([NaN, 1]), [1, 2]), 1, 2, "p.npy")).toThrow("row 0 holds NaN");
  });
});
