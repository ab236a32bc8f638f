import { RandomStream } from "@/lib/random";

/**
 * Seeded randomness for the trainers. Everything random in a fit (initial weights, batch draws,
 * dropout masks, mixup lambdas) comes from one of these streams, generated in JS, so a seed
 * reproduces a fit exactly on the same backend, whatever TF.js's own RNG does.
 */
export class Rng extends RandomStream {
  private state: number;

  constructor(seed: number) {
    super();
    // mix the seed so that nearby seeds give unrelated streams
    this.state = (Math.imul(seed | 0, 0x9e3779b1) ^ 0x85ebca6b) >>> 0;
  }

  /** mulberry32: 32 random bits, 2^32 period, fast enough to fill dropout masks per step */
  nextUint32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Gamma(shape, 1) by Marsaglia-Tsang (shape >= 1 here: Beta(9, 9)) */
  gamma(shape: number): number {
    if (shape < 1) return this.gamma(shape + 1) * Math.pow(this.next(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.next();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  }

  /** Beta(a, b) as Ga / (Ga + Gb) */
  beta(a: number, b: number): number {
    const x = this.gamma(a);
    return x / (x + this.gamma(b));
  }

  /**
   * Dropout in place on out[start, end): each value is zeroed with probability `rate`, else
   * multiplied by keepScale; keepScale null writes a 0/1 mask instead. Dropout masks are most of
   * a step's random numbers, so this loop inlines the generator on a local state, takes two
   * 16-bit draws per word (a rate resolution of 1/65536 is plenty) and decides without branches
   * (a random branch mispredicts every fifth time): keep = sign bit of (threshold - 1 - draw).
   */
  dropout(out: Float32Array, rate: number, keepScale: number | null, start = 0, end = out.length): Float32Array {
    const tm1 = Math.round(rate * 65536) - 1;
    const mask = keepScale === null;
    const scale = keepScale ?? 1;
    let s = this.state;
    for (let i = start; i < end; i += 2) {
      // mulberry32, as nextUint32
      s = (s + 0x6d2b79f5) >>> 0;
      let t = Math.imul(s ^ (s >>> 15), s | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      t ^= t >>> 14;
      const keepA = (tm1 - (t & 0xffff)) >>> 31;
      out[i] = mask ? keepA : out[i] * keepA * scale;
      if (i + 1 < end) {
        const keepB = (tm1 - (t >>> 16)) >>> 31;
        out[i + 1] = mask ? keepB : out[i + 1] * keepB * scale;
      }
    }
    this.state = s;
    return out;
  }

  /** 0/1 keep mask: out[i] = 0 with probability rate, else 1 */
  fillKeep(out: Float32Array, rate: number): Float32Array {
    return this.dropout(out, rate, null);
  }
}

/**
 * Draws batches of a fixed size from a pool of rows: epochs of a seeded permutation, so every
 * row is seen once per pass (sampling without replacement, as a DataLoader with shuffle does).
 */
export class BatchSampler {
  private order: Int32Array;
  private pos: number;

  constructor(
    private readonly pool: Int32Array,
    private readonly rng: Rng,
  ) {
    this.order = rng.shuffle(Int32Array.from(pool));
    this.pos = 0;
  }

  /** fills out with the next rows; reshuffles when a pass ends */
  next(out: Int32Array): Int32Array {
    for (let i = 0; i < out.length; i++) {
      if (this.pos === this.order.length) {
        this.rng.shuffle(this.order);
        this.pos = 0;
      }
      out[i] = this.order[this.pos++];
    }
    return out;
  }

  get size(): number {
    return this.pool.length;
  }
}
