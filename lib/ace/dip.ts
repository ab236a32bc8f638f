/**
 * Hartigan's dip statistic of unimodality (J. A. Hartigan and P. M. Hartigan, "The Dip Test of
 * Unimodality", Ann. Statist. 13, 1985) computed exactly with P. M. Hartigan's algorithm AS 217
 * (Appl. Statist. 34, 1985), as maintained in R's diptest package (M. Maechler's dip.c, incl. its
 * two bug fixes), and its p-value by a seeded Monte Carlo against the uniform distribution, the
 * least favourable unimodal null (Hartigan & Hartigan, Theorem 4).
 *
 * The dip is sup_x |F_n(x) - G(x)| minimised over unimodal G. AS 217 walks the greatest convex
 * minorant (GCM) of F_n left of the modal interval and the least concave majorant (LCM) right of
 * it, shrinking [low, high] until the interval stops changing. Distances are kept in units of
 * 1 / (2n) ("2n * dip") until the end, as in dip.c. As R's dip() (min.is.0 = FALSE) the smallest
 * dip reported is 1 / (2n).
 */
import { createRandom, type RandomSource } from "@/lib/random";

export interface DipResult {
  readonly dip: number;
  /** modal interval [x[low], x[high]] of the sorted sample (0-based indices) */
  readonly low: number;
  readonly high: number;
}

/**
 * mn[j] (1-based) = the previous GCM vertex before j over x[1..j]; mj[j] the next LCM vertex
 * after j over x[j..n]. Both are the usual stack-based hull scans (dip.c's first two loops).
 */
function hullLinks(x: Float64Array, n: number): { mn: Int32Array; mj: Int32Array } {
  const mn = new Int32Array(n + 1);
  const mj = new Int32Array(n + 1);
  mn[1] = 1;
  for (let j = 2; j <= n; j++) {
    mn[j] = j - 1;
    for (;;) {
      const a = mn[j];
      const b = mn[a];
      // keep a when the slope from a to j exceeds the slope from b to a (convexity)
      if (a === 1 || (x[j] - x[a]) * (a - b) < (x[a] - x[b]) * (j - a)) break;
      mn[j] = b;
    }
  }
  mj[n] = n;
  for (let k = n - 1; k >= 1; k--) {
    mj[k] = k + 1;
    for (;;) {
      const a = mj[k];
      const b = mj[a];
      if (a === n || (x[k] - x[a]) * (a - b) < (x[a] - x[b]) * (k - a)) break;
      mj[k] = b;
    }
  }
  return { mn, mj };
}

/** The dip of a sample; `values` need not be sorted (a sorted float64 copy is made). */
export function dipStatistic(values: ArrayLike<number>): DipResult {
  const sorted = Float64Array.from(values).sort();
  return dipOfSorted(sorted);
}

/** The dip of an ascending sample (not checked). */
export function dipOfSorted(sorted: Float64Array): DipResult {
  const n = sorted.length;
  if (n === 0) throw new RangeError("the dip of an empty sample is undefined");
  // 1-based copy, as AS 217 indexes x[1..n]
  const x = new Float64Array(n + 1);
  x.set(sorted, 1);
  let low = 1;
  let high = n;
  let dip = 1;
  if (n < 2 || x[n] === x[1]) return { dip: dip / (2 * n), low: 0, high: n - 1 };
  const { mn, mj } = hullLinks(x, n);
  const gcm = new Int32Array(n + 2);
  const lcm = new Int32Array(n + 2);

  for (;;) {
    // change points of the GCM on [low, high], from high down to low
    gcm[1] = high;
    let i = 1;
    while (gcm[i] > low) {
      gcm[i + 1] = mn[gcm[i]];
      i++;
    }
    const lGcm = i;
    let ig = lGcm;
    let ix = ig - 1;
    // change points of the LCM on [low, high], from low up to high
    lcm[1] = low;
    i = 1;
    while (lcm[i] < high) {
      lcm[i + 1] = mj[lcm[i]];
      i++;
    }
    const lLcm = i;
    let ih = lLcm;
    let iv = 2;

    // the largest distance between GCM and LCM on [low, high]: it bounds the dip attainable here
    let d = 0;
    if (lGcm !== 2 || lLcm !== 2) {
      do {
        const gx = gcm[ix];
        const lv = lcm[iv];
        if (gx > lv) {
          // next change point is the LCM's: distance of the GCM segment below it
          const g1 = gcm[ix + 1];
          const dx = lv - g1 + 1 - ((x[lv] - x[g1]) * (gx - g1)) / (x[gx] - x[g1]);
          iv++;
          if (dx >= d) {
            d = dx;
            ig = ix + 1;
            ih = iv - 1;
          }
        } else {
          // next change point is the GCM's: distance of the LCM segment above it
          const l1 = lcm[iv - 1];
          const dx = ((x[gx] - x[l1]) * (lv - l1)) / (x[lv] - x[l1]) - (gx - l1 - 1);
          ix--;
          if (dx >= d) {
            d = dx;
            ig = ix + 1;
            ih = iv;
          }
        }
        if (ix < 1) ix = 1;
        if (iv > lLcm) iv = lLcm;
      } while (gcm[ix] !== lcm[iv]);
    } else {
      d = 1;
    }
    if (d < dip) break;

    // the dips of the GCM left of the new low and of the LCM right of the new high
    let dipL = 0;
    for (let j = ig; j < lGcm; j++) {
      let best = 1;
      const jb = gcm[j + 1];
      const je = gcm[j];
      if (je - jb > 1 && x[je] !== x[jb]) {
        const c = (je - jb) / (x[je] - x[jb]);
        for (let jj = jb; jj <= je; jj++) {
          const t = jj - jb + 1 - (x[jj] - x[jb]) * c;
          if (best < t) best = t;
        }
      }
      if (dipL < best) dipL = best;
    }
    let dipU = 0;
    for (let j = ih; j < lLcm; j++) {
      let best = 1;
      const jb = lcm[j];
      const je = lcm[j + 1];
      if (je - jb > 1 && x[je] !== x[jb]) {
        const c = (je - jb) / (x[je] - x[jb]);
        for (let jj = jb; jj <= je; jj++) {
          const t = (x[jj] - x[jb]) * c - (jj - jb - 1);
          if (best < t) best = t;
        }
      }
      if (dipU < best) dipU = best;
    }
    dip = Math.max(dip, dipL, dipU);

    const unchanged = low === gcm[ig] && high === lcm[ih];
    low = gcm[ig];
    high = lcm[ih];
    if (unchanged) break;
  }
  return { dip: dip / (2 * n), low: low - 1, high: high - 1 };
}

export interface DipTestOptions {
  /** Monte Carlo samples of the uniform null (default 2000) */
  readonly simulations?: number;
  readonly seed?: number;
}

export interface DipTestResult {
  readonly dip: number;
  /** (1 + #{null dips >= dip}) / (B + 1): a valid Monte Carlo p-value */
  readonly pValue: number;
  readonly simulations: number;
}

/** Sorted dips of `simulations` uniform samples of size n: the null distribution at this n. */
export function uniformDipNull(n: number, simulations: number, random: RandomSource): Float64Array {
  const out = new Float64Array(simulations);
  const u = new Float64Array(n);
  for (let b = 0; b < simulations; b++) {
    for (let i = 0; i < n; i++) u[i] = random.next();
    u.sort();
    out[b] = dipOfSorted(u).dip;
  }
  return out.sort();
}

/** p-value of a dip against a sorted null sample. */
export function dipPValue(dip: number, sortedNull: Float64Array): number {
  // first index whose null dip is >= dip (binary search)
  let lo = 0;
  let hi = sortedNull.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sortedNull[mid] < dip) lo = mid + 1;
    else hi = mid;
  }
  return (1 + sortedNull.length - lo) / (sortedNull.length + 1);
}

/** Hartigan's dip test of unimodality with a seeded Monte Carlo p-value. */
export function dipTest(values: ArrayLike<number>, options: DipTestOptions = {}): DipTestResult {
  const simulations = options.simulations ?? 2000;
  const { dip } = dipStatistic(values);
  const nullDips = uniformDipNull(values.length, simulations, createRandom(options.seed ?? 0));
  return { dip, pValue: dipPValue(dip, nullDips), simulations };
}
