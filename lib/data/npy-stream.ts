/**
 * .npy files read piece by piece, for bundles too large to hold twice in memory (a 1M x 128
 * float32 embedding is 512 MB): the header alone, then the values in chunks of whole rows.
 */
import { open } from "node:fs/promises";
import { NpyFormatError, parseNpyHeader, type NpyHeader } from "./npy";

const HEADER_PROBE_BYTES = 65_536;

export interface NpyFileHeader extends NpyHeader {
  readonly path: string;
}

/** Reads and checks the header, and that the file holds exactly the values its shape promises. */
export async function readNpyFileHeader(path: string, source = path): Promise<NpyFileHeader> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const probe = new Uint8Array(Math.min(size, HEADER_PROBE_BYTES));
    await file.read(probe, 0, probe.length, 0);
    const header = parseNpyHeader(probe, source);
    if (header.fortranOrder && header.shape.length > 2)
      throw new NpyFormatError(`${source}: Fortran-ordered array of ${header.shape.length} dimensions: save a C-ordered copy, e.g. np.ascontiguousarray(arr)`);
    const expected = header.shape.reduce((a, b) => a * b, 1) * 4;
    if (size - header.dataStart !== expected)
      throw new NpyFormatError(`${source}: shape (${header.shape.join(", ")}) needs ${expected} data bytes, the file has ${size - header.dataStart}`);
    return { ...header, path };
  } finally {
    await file.close();
  }
}

/**
 * Calls `onChunk` with consecutive blocks of whole rows (a row = `rowLength` values) and the index
 * of the block's first row, in C order. The block's buffer is reused: copy what must outlive the
 * call. A Fortran-ordered [N, D] file stores column after column; each block is then gathered
 * from D reads, one per column.
 */
export async function forEachNpyChunk(
  header: NpyFileHeader,
  rowLength: number,
  onChunk: (values: Float32Array | Int32Array, firstRow: number) => void,
  rowsPerChunk = Math.max(1, Math.floor(4_194_304 / Math.max(1, rowLength))),
): Promise<void> {
  const rows = header.shape[0] ?? 1;
  const buffer = new ArrayBuffer(rowsPerChunk * rowLength * 4);
  const bytes = new Uint8Array(buffer);
  const file = await open(header.path, "r");
  try {
    for (let first = 0; first < rows; first += rowsPerChunk) {
      const count = Math.min(rowsPerChunk, rows - first);
      const values = header.dtype === "float32" ? new Float32Array(buffer, 0, count * rowLength) : new Int32Array(buffer, 0, count * rowLength);
      if (header.fortranOrder && rowLength > 1) {
        const column = header.dtype === "float32" ? new Float32Array(count) : new Int32Array(count);
        const columnBytes = new Uint8Array(column.buffer);
        for (let j = 0; j < rowLength; j++) {
          const { bytesRead } = await file.read(columnBytes, 0, count * 4, header.dataStart + (j * rows + first) * 4);
          if (bytesRead !== count * 4) throw new NpyFormatError(`${header.path}: file ended early in column ${j}`);
          for (let r = 0; r < count; r++) values[r * rowLength + j] = column[r];
        }
      } else {
        const length = count * rowLength * 4;
        const { bytesRead } = await file.read(bytes, 0, length, header.dataStart + first * rowLength * 4);
        if (bytesRead !== length) throw new NpyFormatError(`${header.path}: file ended early at row ${first}`);
      }
      onChunk(values, first);
    }
  } finally {
    await file.close();
  }
}
