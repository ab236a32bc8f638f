/**
 * numpy .npy files (format versions 1.0, 2.0 and 3.0) for the bundle interchange format:
 * little-endian float32 or int32, C order. Fortran-ordered arrays (numpy writes them for a
 * transposed array, e.g. the output of some sklearn transformers) are transposed into C order on a
 * whole-file read; anything else is refused with a message that says how to convert it in numpy,
 * rather than silently reinterpreted.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";

export type NpyDtype = "float32" | "int32";

export interface NpyArray<T extends Float32Array | Int32Array = Float32Array | Int32Array> {
  readonly dtype: NpyDtype;
  readonly shape: readonly number[];
  readonly data: T;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

const DESCR: Record<string, NpyDtype> = { "<f4": "float32", "<i4": "int32" };

export class NpyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NpyFormatError";
  }
}

function fail(source: string, message: string): never {
  throw new NpyFormatError(`${source}: ${message}`);
}

/** Parses the header dict numpy writes, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } */
function parseHeader(text: string, source: string): { descr: string; fortranOrder: boolean; shape: number[] } {
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(text);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(text);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(text);
  if (!descr || !fortran || !shape) fail(source, `unreadable .npy header ${JSON.stringify(text.trim())}`);
  const dims = shape[1]
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => {
      if (!/^\d+L?$/.test(s)) fail(source, `bad shape entry '${s}' in .npy header`);
      return Number.parseInt(s, 10);
    });
  return { descr: descr[1], fortranOrder: fortran[1] === "True", shape: dims };
}

function dtypeAdvice(descr: string): string {
  if (descr.startsWith(">")) return `big-endian dtype '${descr}': save it little-endian, e.g. arr.astype('<${descr.slice(1)}')`;
  if (/^[<|=]?[iu][18]$|^[<|=]?[iu]2$/.test(descr) || /^[<|=]?u4$/.test(descr))
    return `dtype '${descr}' is not int32: save with arr.astype(np.int32)`;
  if (/^[<|=]?f[28]$/.test(descr)) return `dtype '${descr}' is not float32: save with arr.astype(np.float32)`;
  return `unsupported dtype '${descr}': bundles hold little-endian float32 ('<f4') or int32 ('<i4')`;
}

export interface NpyHeader {
  readonly dtype: NpyDtype;
  readonly shape: readonly number[];
  /** byte offset of the first value */
  readonly dataStart: number;
  /** values stored column-major (numpy's fortran_order); only whole-file reads accept it */
  readonly fortranOrder: boolean;
}

/**
 * Decodes the magic string and header at the start of a .npy file; `bytes` may be just the
 * file's first bytes (a header never exceeds a few KiB in practice). Throws on anything but
 * little-endian float32/int32; reports fortran_order for the caller to transpose or refuse.
 */
export function parseNpyHeader(bytes: Uint8Array, source = "array"): NpyHeader {
  if (bytes.length < 10 || MAGIC.some((m, i) => bytes[i] !== m)) fail(source, "not a .npy file (magic string missing)");
  const major = bytes[6];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLength: number;
  let headerStart: number;
  if (major === 1) {
    headerLength = view.getUint16(8, true);
    headerStart = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) fail(source, "truncated .npy header");
    headerLength = view.getUint32(8, true);
    headerStart = 12;
  } else {
    fail(source, `unsupported .npy format version ${major}.${bytes[7]}`);
  }
  const dataStart = headerStart + headerLength;
  if (dataStart > bytes.length) fail(source, "truncated .npy header");
  const headerText = new TextDecoder(major === 3 ? "utf-8" : "latin1").decode(bytes.subarray(headerStart, dataStart));
  const { descr, fortranOrder, shape } = parseHeader(headerText, source);
  const dtype = DESCR[descr];
  if (!dtype) fail(source, dtypeAdvice(descr));
  return { dtype, shape, dataStart, fortranOrder };
}

/**
 * Column-major values of `shape` rewritten row-major: element (i_0, ..., i_{m-1}) sits at
 * sum_j i_j * prod_{l<j} shape_l in Fortran order and at sum_j i_j * prod_{l>j} shape_l in C order.
 */
function fortranToC<T extends Float32Array | Int32Array>(values: T, shape: readonly number[]): T {
  if (shape.length < 2) return values;
  const out = new (values.constructor as new (n: number) => T)(values.length);
  const m = shape.length;
  const cStride = new Array<number>(m);
  cStride[m - 1] = 1;
  for (let j = m - 2; j >= 0; j--) cStride[j] = cStride[j + 1] * shape[j + 1];
  const index = new Array<number>(m).fill(0);
  // walk the Fortran order (first index fastest), keeping the C offset in step
  let c = 0;
  for (let f = 0; f < values.length; f++) {
    out[c] = values[f];
    for (let j = 0; j < m; j++) {
      index[j]++;
      c += cStride[j];
      if (index[j] < shape[j]) break;
      c -= cStride[j] * shape[j];
      index[j] = 0;
    }
  }
  return out;
}

/** Decodes a whole .npy file held in memory (Fortran order transposed into C order). `source` names it in error messages. */
export function parseNpy(bytes: Uint8Array, source = "array"): NpyArray {
  const { dtype, shape, dataStart, fortranOrder } = parseNpyHeader(bytes, source);
  const count = shape.reduce((a, b) => a * b, 1);
  const byteLength = count * 4;
  if (bytes.length - dataStart !== byteLength)
    fail(source, `shape (${shape.join(", ")}) needs ${byteLength} data bytes, the file has ${bytes.length - dataStart}`);
  // copy into a fresh, aligned buffer (the payload offset need not be a multiple of 4)
  // (Buffer.slice would return a view into Node's shared pool, hence the explicit copy)
  const payload = new Uint8Array(byteLength);
  payload.set(bytes.subarray(dataStart, dataStart + byteLength));
  if (!littleEndianHost()) fail(source, "this host is big-endian; .npy reading assumes a little-endian host");
  const raw = dtype === "float32" ? new Float32Array(payload.buffer) : new Int32Array(payload.buffer);
  const data = fortranOrder ? fortranToC(raw, shape) : raw;
  return { dtype, shape, data };
}

function littleEndianHost(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}

/**
 * The magic string and header of a version 1.0 .npy file; the C-ordered little-endian payload
 * follows it. Separate from encodeNpy so that large arrays can be written chunk by chunk.
 */
export function encodeNpyHeader(dtype: NpyDtype, shape: readonly number[]): Uint8Array {
  const descr = dtype === "float32" ? "<f4" : "<i4";
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  // numpy pads with spaces so that magic + length + header + '\n' is a multiple of 64
  const unpadded = 10 + header.length + 1;
  header += " ".repeat((64 - (unpadded % 64)) % 64) + "\n";
  const out = new Uint8Array(10 + header.length);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  return out;
}

/** Encodes a C-ordered float32 or int32 array as a version 1.0 .npy file. */
export function encodeNpy(data: Float32Array | Int32Array, shape: readonly number[]): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) throw new NpyFormatError(`shape (${shape.join(", ")}) holds ${count} values, the array has ${data.length}`);
  const header = encodeNpyHeader(data instanceof Float32Array ? "float32" : "int32", shape);
  const out = new Uint8Array(header.length + data.byteLength);
  out.set(header, 0);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), header.length);
  return out;
}

export async function readNpy(path: string): Promise<NpyArray> {
  return parseNpy(await readFile(path), path);
}

export async function writeNpy(path: string, data: Float32Array | Int32Array, shape: readonly number[]): Promise<void> {
  await writeFile(path, encodeNpy(data, shape));
}

/** A .npy file written chunk by chunk (arrays too large to hold at once): the header, then `fill`'s rows, `rowsPerChunk` at a time. */
export async function writeNpyStreamed(
  path: string,
  dtype: NpyDtype,
  shape: readonly number[],
  fill: (first: number, count: number) => Float32Array | Int32Array,
  rowsPerChunk = 8192,
): Promise<void> {
  const out = createWriteStream(path);
  const write = async (bytes: Uint8Array) => {
    if (!out.write(bytes)) await once(out, "drain");
  };
  await write(encodeNpyHeader(dtype, shape));
  for (let first = 0; first < shape[0]; first += rowsPerChunk) {
    const values = fill(first, Math.min(rowsPerChunk, shape[0] - first));
    await write(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }
  out.end();
  await once(out, "finish");
}
