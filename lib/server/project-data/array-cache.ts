import { stat } from "node:fs/promises";
import { readNpy, type NpyArray } from "@/lib/data/npy";
import { projectFile, type ProjectFolder } from "./paths";

/**
 * A small per-process LRU of the per-item arrays the dashboard reads on every request (a
 * clustering's assignments, the latest round's results: 4 and 8 MB at N = 1M), so that the
 * contingency view and the items of a cell stop re-reading them. An entry is keyed by the file's
 * absolute path, inode, size and mtime: round files are written by rename (folder.ts), so a new
 * round (a new file) or a rewritten one (a new inode) never matches an old entry, whichever
 * process wrote it. Bounded to SHARED_ARRAY_ENTRIES arrays and SHARED_ARRAY_BYTES in all (at 1M:
 * two clusterings' assignments and one round's results); a larger array is read, not kept.
 * The arrays are shared between requests: callers read them and never write into them.
 */
export const SHARED_ARRAY_ENTRIES = 4;
export const SHARED_ARRAY_BYTES = 64 * 1024 * 1024;

interface Entry {
  readonly key: string;
  readonly array: NpyArray;
}
// on globalThis so Next's route bundles (each with its own copy of this module) share one cache and one bound;
// the Map's insertion order is recency order: a hit is moved to the end, eviction takes the first
const holder = globalThis as unknown as { cerealSharedArrays?: { entries: Map<string, Entry>; bytes: number } };
const cache = (holder.cerealSharedArrays ??= { entries: new Map(), bytes: 0 });
const entries = cache.entries;

const sizeOf = (array: NpyArray) => array.data.byteLength;

/** The array in a project file, from the cache while the file on disk is the one it was read from. */
export async function readSharedArray(project: ProjectFolder, relative: string): Promise<NpyArray> {
  const file = projectFile(project, relative);
  const info = await stat(file);
  const key = `${info.ino}:${info.size}:${info.mtimeMs}`;
  const hit = entries.get(file);
  if (hit?.key === key) {
    entries.delete(file);
    entries.set(file, hit);
    return hit.array;
  }
  if (hit) forget(file);
  const array = await readNpy(file);
  if (sizeOf(array) > SHARED_ARRAY_BYTES) return array;
  entries.set(file, { key, array });
  cache.bytes += sizeOf(array);
  for (const [oldest] of entries) {
    if (entries.size <= SHARED_ARRAY_ENTRIES && cache.bytes <= SHARED_ARRAY_BYTES) break;
    forget(oldest);
  }
  return array;
}

function forget(file: string) {
  const entry = entries.get(file);
  if (!entry) return;
  cache.bytes -= sizeOf(entry.array);
  entries.delete(file);
}

/** How many arrays and bytes the cache holds (tests and benches read it). */
export function sharedArrayCacheSize(): { entries: number; bytes: number } {
  return { entries: entries.size, bytes: cache.bytes };
}
