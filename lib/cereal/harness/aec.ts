/**
 * AEC: the area under the absolute error curve (paper, section 5), by the trapezoid rule over the
 * rounds' estimates at nLabels = seed, seed + n, ..., budget. Two x units (ARCHITECTURE.md):
 * rounds (one unit = one batch of n labels, the paper's unit) and thousands of labels.
 */

export interface ErrorPoint {
  readonly nLabels: number;
  readonly absErr: number;
}

/** trapezoid area under (x_i, y_i) */
export function trapezoid(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length) throw new Error(`trapezoid: ${xs.length} x values for ${ys.length} y values`);
  let area = 0;
  for (let i = 1; i < xs.length; i++) area += ((xs[i] - xs[i - 1]) * (ys[i] + ys[i - 1])) / 2;
  return area;
}

/** AEC of one error curve with x = (nLabels - first nLabels) / unit */
export function aec(points: readonly ErrorPoint[], unit: number): number {
  if (!(unit > 0)) throw new Error(`aec: the x unit must be positive, got ${unit}`);
  if (points.length === 0) return 0;
  const start = points[0].nLabels;
  return trapezoid(
    points.map((p) => (p.nLabels - start) / unit),
    points.map((p) => p.absErr),
  );
}

/**
 * AEC with x in annotator-hours instead of thousands of labels, given the seconds one answer takes
 * (the dashboard's median per mode, label-overview.ts): the x axis scales by 1000 s / 3600, so the
 * area does too. Compares modes whose answers cost different times (a pair answer vs a class label).
 */
export function aecPerAnnotatorHour(aecPer1000Labels: number, secondsPerAnswer: number): number {
  if (!(secondsPerAnswer > 0)) throw new Error(`aecPerAnnotatorHour: seconds per answer must be positive, got ${secondsPerAnswer}`);
  return (aecPer1000Labels * 1000 * secondsPerAnswer) / 3600;
}
