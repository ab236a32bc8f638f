/**
 * Seeded pseudo-random generators, so every random choice (silhouette sampling, property tests,
 * simulations, the trainers) is reproducible from a seed. SplitMix32 seeds sfc32 (Chris
 * Doty-Humphrey's Small Fast Chaotic generator, PractRand-clean); both are 32-bit integer code,
 * fast in JS.
 */

export interface RandomSource {
  /** uniform in [0, 1) with 32 random bits */
  next(): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
}

/**
 * What every seeded generator of the project builds on 32 random bits: uniforms, integers,
 * normals, shuffles. A subclass supplies the bits (sfc32 below; models/trainer-random.ts' mulberry32 for
 * the trainers' dropout masks), so the same seed gives the same stream whatever is drawn from it.
 */
export abstract class RandomStream implements RandomSource {
  abstract nextUint32(): number;

  /** uniform in [0, 1) with 32 random bits */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** moves the stream past `count` draws, as if next() had been called that often */
  skip(count: number): void {
    for (let i = 0; i < count; i++) this.nextUint32();
  }

  /** integer in [0, n) */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** standard normal (Box-Muller) */
  normal(): number {
    let u = 0;
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Fisher-Yates, in place */
  shuffle<T extends { length: number; [i: number]: number }>(values: T): T {
    for (let i = values.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = values[i];
      values[i] = values[j];
      values[j] = t;
    }
    return values;
  }
}

/** sfc32 (Small Fast Chaotic, 128-bit state) seeded through splitmix32 from a 32-bit seed. */
export class Sfc32 extends RandomStream {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    super();
    let s = seed >>> 0;
    const splitmix = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    // discard the first outputs, as sfc32's authors recommend
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** nextUint32's steps in a loop on local 32-bit integers: an interval draw moves past every unlabeled row (intervals.ts) */
  override skip(count: number): void {
    let a = this.a | 0;
    let b = this.b | 0;
    let c = this.c | 0;
    let d = this.d | 0;
    for (let i = 0; i < count; i++) {
      const t = (a + b + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + t) | 0;
    }
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
  }
}

/** A stream for any finite seed (the high bits of a large one folded in; NaN and infinities act as 0). */
export function createRandom(seed: number): Sfc32 {
  return new Sfc32(Number.isFinite(seed) ? Math.trunc(seed) ^ Math.trunc(seed / 2 ** 32) : 0);
}

/** k distinct indices from 0..n-1, uniformly (partial Fisher-Yates), in increasing order. */
export function sampleWithoutReplacement(n: number, k: number, random: RandomSource): Int32Array {
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
export function permutation(n: number, random: RandomStream): Int32Array {
  return random.shuffle(Int32Array.from({ length: n }, (_, i) => i));
}
