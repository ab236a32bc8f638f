/**
 * Golden-section search (Kiefer 1953) for the minimum of a function unimodal on [lo, hi]: each step keeps the part of the
 * bracket that holds the smaller of its two interior values, which shrinks it by (sqrt 5 - 1) / 2, and reuses the other value.
 * Returns the bracket's midpoint after `steps` steps (a flat stretch keeps the upper part). calibration.ts fits the temperature
 * with it on log T; bench/soft-fitted.ts the temperature of its replay candidates.
 */
export function goldenSectionMinimum(f: (x: number) => number, lo: number, hi: number, steps: number): number {
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = lo;
  let b = hi;
  let c = b - phi * (b - a);
  let d = a + phi * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let step = 0; step < steps; step++) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - phi * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + phi * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}
