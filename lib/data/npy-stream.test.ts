import { describe, expect, it } from "vitest";
import { readNpy } from "./npy";
import { forEachNpyChunk, readNpyFileHeader } from "./npy-stream";
import { validateBundle } from "./validate-bundle";

describe("streamed .npy rows", () => {
  it("gathers a Fortran-ordered file (digits-spaces' isomap8.npy) into C-ordered row blocks", async () => {
    const path = "data/digits-spaces/spaces/isomap8.npy";
    const whole = (await readNpy(path)).data;
    const header = await readNpyFileHeader(path);
    expect(header.fortranOrder).toBe(true);
    const streamed = new Float32Array(whole.length);
    const firsts: number[] = [];
    await forEachNpyChunk(header, 8, (values, first) => {
      streamed.set(values, first * 8);
      firsts.push(first);
    }, 500);
    expect(firsts).toEqual([0, 500, 1000, 1500]);
    expect(Array.from(streamed)).toEqual(Array.from(whole));
  });

  it("lets digits-spaces pass bundle validation: 8 spaces, 24 clusterings with their space", async () => {
    const summary = await validateBundle("data/digits-spaces");
    expect(summary.spaces.map((s) => s.name)).toEqual(["raw", "standardized", "pca8", "pca16", "randproj16", "isomap8", "half_noise", "noise"]);
    expect(summary.embeddingSpace).toBe("raw");
    expect(summary.clusterings).toHaveLength(24);
    expect(summary.clusterings.every((c) => c.space !== null)).toBe(true);
  });
});
