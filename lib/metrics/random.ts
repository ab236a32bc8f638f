/**
 * A small seeded pseudo-random generator, so every random choice (silhouette sampling, property
 * tests, simulations) is reproducible from a seed. SplitMix32 seeds sfc32 (Chris Doty-Humphrey's
 * Small Fast Counting generator, PractRand-clean); both are 32-bit integer code, fast in JS.
 */

export interface Random {
  /** uniform in [0, 1) with 32 random bits */
  next(): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
}

function splitMix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRandom(seed: number): Random {
  const init = splitMix32(Number.isFinite(seed) ? Math.trunc(seed) ^ Math.trunc(seed / 2 ** 32) : 0);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const nextUint = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) nextUint();
  const next = () => nextUint() / 4294967296;
  return { next, int: (n: number) => Math.floor(next() * n) };
}

/** k distinct indices from 0..n-1, uniformly (partial Fisher-Yates), in increasing order. */
export function sampleWithoutReplacement(n: number, k: number, random: Random): Int32Array {
  if (k > n || k < 0) throw new RangeError(`cannot draw ${k} of ${n}`);
  const pool = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + random.int(n - i);
    const tmp = pool[i];
    pool[i] = pool[j];
    pool[j] = tmp;
  }
  return pool.slice(0, k).sort();
}

/** A uniformly random permutation of 0..n-1. */
export function permutation(n: number, random: Random): Int32Array {
  const out = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const tmp = out[i];
    out[i] = out[j];
    out[j] = tmp;
  }
  return out;
}
