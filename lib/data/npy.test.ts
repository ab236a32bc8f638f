import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeNpy, NpyFormatError, parseNpy, readNpy, writeNpy } from "./npy";

/** a .npy file with a hand-written header (version 1.0) and raw payload bytes */
function handMade(header: string, payload: Uint8Array, version = 1): Uint8Array {
  const lengthBytes = version === 1 ? 2 : 4;
  const out = new Uint8Array(8 + lengthBytes + header.length + payload.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[8 + lengthBytes + i] = header.charCodeAt(i);
  out.set(payload, 8 + lengthBytes + header.length);
  return out;
}

describe(".npy", () => {
  it("round-trips float32 and int32 arrays with their shapes, header padded to 64 bytes", () => {
    const f = Float32Array.from([1.5, -2, 3.25, 0, 1e-7, 6]);
    const bytes = encodeNpy(f, [2, 3]);
    expect((bytes.length - f.byteLength) % 64).toBe(0);
    const back = parseNpy(bytes);
    expect(back.dtype).toBe("float32");
    expect(back.shape).toEqual([2, 3]);
    expect(Array.from(back.data)).toEqual(Array.from(f));
    const ints = parseNpy(encodeNpy(Int32Array.from([-1, 7, 2147483647]), [3]));
    expect(ints.dtype).toBe("int32");
    expect(ints.shape).toEqual([3]);
    expect(Array.from(ints.data)).toEqual([-1, 7, 2147483647]);
  });

  it("reads numpy's own files: the digits labels are 0, 1, 2, ... in sklearn order", async () => {
    const labels = await readNpy("data/digits/labels.npy");
    expect(labels.dtype).toBe("int32");
    expect(labels.shape).toEqual([1797]);
    expect(Array.from(labels.data.subarray(0, 5))).toEqual([0, 1, 2, 3, 4]);
    const emb = await readNpy("data/digits/embeddings.npy");
    expect(emb.shape).toEqual([1797, 64]);
    // the first digit's top-left pixels (sklearn's digits[0]: 0, 0, 5, 13, 9, 1, 0, 0)
    expect(Array.from(emb.data.subarray(0, 8))).toEqual([0, 0, 5, 13, 9, 1, 0, 0]);
  });

  it("reads a version 2.0 header and a 0-d shape", () => {
    const payload = new Uint8Array(new Float32Array([2.5]).buffer);
    const parsed = parseNpy(handMade("{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", payload, 2));
    expect(parsed.shape).toEqual([]);
    expect(Array.from(parsed.data)).toEqual([2.5]);
  });

  it("writes a file numpy can read back (via our reader) through the filesystem", async () => {
    const dir = await mkdtemp(join(tmpdir(), "npy-"));
    try {
      await writeNpy(join(dir, "a.npy"), Int32Array.from([3, 1, 2]), [3]);
      expect(Array.from((await readNpy(join(dir, "a.npy"))).data)).toEqual([3, 1, 2]);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  const four = new Uint8Array(4);
  it.each([
    ["big-endian", "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", /big-endian.*'<f4'/],
    ["float64", "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", /not float32.*astype\(np\.float32\)/],
    ["int64", "{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", /not int32.*astype\(np\.int32\)/],
    ["a short payload", "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", /needs 8 data bytes, the file has 4/],
    ["a garbled header", "{'descr': '<i4', 'shape': (1,), }", /unreadable \.npy header/],
  ])("refuses %s with a clear message", (_, header, message) => {
    expect(() => parseNpy(handMade(header, four), "x.npy")).toThrow(NpyFormatError);
    expect(() => parseNpy(handMade(header, four), "x.npy")).toThrow(message);
  });

  it("refuses a file without the magic string", () => {
    expect(() => parseNpy(new TextEncoder().encode("not numpy at all"), "x.npy")).toThrow(/x\.npy: not a \.npy file/);
  });

  it("transposes a Fortran-ordered array into C order", () => {
    // [[1, 2, 3], [4, 5, 6]] stored column by column: 1 4 2 5 3 6
    const payload = new Uint8Array(Int32Array.from([1, 4, 2, 5, 3, 6]).buffer);
    const parsed = parseNpy(handMade("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }\n", payload));
    expect(parsed.shape).toEqual([2, 3]);
    expect(Array.from(parsed.data)).toEqual([1, 2, 3, 4, 5, 6]);
    // a 2 x 2 x 2 array: Fortran position of (i, j, l) is i + 2j + 4l, C position 4i + 2j + l
    const f = Int32Array.from({ length: 8 }, (_, p) => 100 * (p % 2) + 10 * (Math.floor(p / 2) % 2) + Math.floor(p / 4));
    const cube = parseNpy(handMade("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2, 2), }\n", new Uint8Array(f.buffer)));
    expect(Array.from(cube.data)).toEqual([0, 1, 10, 11, 100, 101, 110, 111]);
  });

  it("reads digits-spaces' isomap8.npy, which numpy stored in Fortran order, row by row", async () => {
    const isomap = await readNpy("data/digits-spaces/spaces/isomap8.npy");
    expect(isomap.shape).toEqual([1797, 8]);
    // numpy: np.load(...)[0, :3] and [1, :3]
    expect(isomap.data[0]).toBeCloseTo(99.14208, 4);
    expect(isomap.data[1]).toBeCloseTo(-30.935612, 4);
    expect(isomap.data[2]).toBeCloseTo(73.104454, 4);
    expect(isomap.data[8]).toBeCloseTo(-26.787554, 4);
    expect(isomap.data[9]).toBeCloseTo(46.718163, 4);
  });

  it("refuses to encode a shape that does not fit the data", () => {
    expect(() => encodeNpy(new Float32Array(5), [2, 3])).toThrow(/holds 6 values, the array has 5/);
  });
});
