/**
 * Seeded randomness for the Cereal loop. Every random choice of a simulation (the seed batch,
 * proportional draws, bootstrap draws, sampled pseudo-labels, the surrogate's fit seed) comes
 * from a stream derived from the run's seed and a name, so a run is reproducible bit for bit and
 * adding a new stream does not shift the others.
 */

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

/** A seeded stream: sfc32 (Small Fast Chaotic, 128-bit state), seeded through splitmix32. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
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

  /** a named child stream: same parent seed + same name gives the same stream */
  static from(seed: number, ...parts: (string | number)[]): Random {
    return new Random(deriveSeed(seed, ...parts));
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

  /** uniform in [0, 1) with 32 random bits */
  next(): number {
    return this.nextUint32() / 4294967296;
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
