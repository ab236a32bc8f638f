/**
 * Student's t distribution function through the regularized incomplete beta function:
 *   F(t; nu) = 1 - I_{nu / (nu + t^2)}(nu / 2, 1 / 2) / 2   for t >= 0, F(-t) = 1 - F(t)
 * (Abramowitz & Stegun 26.7.1 with 26.5.27). I_x(a, b) by the continued fraction of
 * A&S 26.5.8, evaluated with the modified Lentz method (Numerical Recipes 6.4, betacf), and
 * ln Gamma by Lanczos' approximation (g = 7, 9 terms; relative error below 1e-15).
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x); // reflection
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction for I_x(a, b), converging fast for x < (a + 1) / (a + b + 2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b) for a, b > 0 and 0 <= x <= 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`incomplete beta needs a, b > 0 (got ${a}, ${b})`);
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  // the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) keeps the fraction in its fast region
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T <= t) for Student's t with nu > 0 degrees of freedom. */
export function studentTCdf(t: number, nu: number): number {
  if (!(nu > 0)) throw new RangeError(`degrees of freedom must be positive (got ${nu})`);
  if (Number.isNaN(t)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = regularizedIncompleteBeta(nu / (nu + t * t), nu / 2, 0.5) / 2;
  return t >= 0 ? 1 - tail : tail;
}

/** P(T >= t): the upper tail, computed directly so small p-values keep their precision. */
export function studentTSurvival(t: number, nu: number): number {
  return studentTCdf(-t, nu);
}
