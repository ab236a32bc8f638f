/**
 * Seeded randomness for the Cereal loop. Every random choice of a simulation (the seed batch,
 * proportional draws, bootstrap draws, sampled pseudo-labels, the surrogate's fit seed) comes
 * from a stream derived from the run's seed and a name, so a run is reproducible bit for bit and
 * adding a new stream does not shift the others.
 */
import { Sfc32 } from "./streams";

/** 32-bit hash of a seed and a path of names/numbers (FNV-1a over the parts, then murmur3's finaliser). */
export function deriveSeed(seed: number, ...parts: (string | number)[]): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  h = Math.imul(h, 0x01000193) >>> 0;
  for (const part of parts) {
    const text = `/${part}`;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** A seeded stream of the Cereal loop (sfc32, streams.ts), with named child streams and categorical draws. */
export class Random extends Sfc32 {
  /** a named child stream: same parent seed + same name gives the same stream */
  static from(seed: number, ...parts: (string | number)[]): Random {
    return new Random(deriveSeed(seed, ...parts));
  }

  /** index drawn from the categorical distribution probs[offset .. offset + k) (need not sum to 1 exactly) */
  categorical(probs: ArrayLike<number>, offset: number, k: number): number {
    let total = 0;
    for (let j = 0; j < k; j++) total += probs[offset + j];
    let u = this.next() * total;
    for (let j = 0; j < k; j++) {
      u -= probs[offset + j];
      if (u < 0) return j;
    }
    // rounding left u >= 0: return the last class with mass
    for (let j = k - 1; j >= 0; j--) if (probs[offset + j] > 0) return j;
    return k - 1;
  }
}
