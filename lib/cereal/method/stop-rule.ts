/**
 * When is an estimate good enough? A clustering's estimate of a metric has converged when its
 * interval is narrower than `maxWidth` and the estimate moved less than `maxMove` over the last
 * `window` rounds. The projection of labels still needed fits width = a * n^-g to the widths so far,
 * g held to [1/2, 1] and the curve drawn through the latest width (widthLaw), solves it for maxWidth,
 * and never asks for more labels than the pool has items left.
 */

export interface StopRuleOptions {
  /** interval width below which an estimate may stop (default 0.02) */
  readonly maxWidth?: number;
  /** largest move of the estimate over the window (default 0.01) */
  readonly maxMove?: number;
  /** rounds in the window: the estimate is compared across the current round and the `window` before it (default 3) */
  readonly window?: number;
  /** the items the labels are drawn from (a project's or bundle's n): the projection asks for at most the ones left, labeling which makes the metric exact; absent: a pool without end (pairwise answers) */
  readonly poolSize?: number;
}

export interface HistoryPoint {
  readonly nLabels: number;
  readonly estimate: number;
  /** [lower, upper] */
  readonly interval: readonly [number, number];
}

export interface StopDecision {
  readonly converged: boolean;
  readonly width: number;
  /** largest minus smallest estimate over the window; null before window + 1 rounds exist */
  readonly moved: number | null;
  /** labels beyond the current count until the width reaches maxWidth (fitted without round 0 once three later rounds exist); 0 only when it already has, null when the widths are not shrinking */
  readonly labelsStillNeeded: number | null;
}

const DEFAULTS = { maxWidth: 0.02, maxMove: 0.01, window: 3 };

/** the exponent's range: 1/2, the rate of a sample's mean; 1, what a width that also loses a bias term can reach */
const EXPONENT_RANGE = [0.5, 1] as const;

/**
 * The width law width = a * n^-g over the points with a positive width: g by least squares of log(width) on log(n), held to
 * EXPONENT_RANGE, and a through the latest point, the best reading of where the width stands (a free fit's level and slope
 * are pulled by early rounds whose widths rose and fell). null when fewer than two points or
 * the fitted widths do not shrink (g <= 0). On 100 fresh digits runs at budget 1,000 the free power law it replaced projected
 * at 200 labels up to 10^58 times the labels the interval then needed, and at 500 up to 78 times; this law 0.36-5.0x and
 * 0.71-1.52x (MEASUREMENTS.md "Issue #23: the default on 100 fresh seeds, and the projection's width law").
 */
export function widthLaw(history: readonly HistoryPoint[]): { a: number; g: number } | null {
  const pts = history
    .map((h) => ({ x: Math.log(h.nLabels), y: Math.log(h.interval[1] - h.interval[0]) }))
    .filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (pts.length < 2) return null;
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  let sxy = 0;
  let sxx = 0;
  for (const p of pts) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  if (sxx === 0 || -sxy / sxx <= 0) return null;
  const g = Math.min(EXPONENT_RANGE[1], Math.max(EXPONENT_RANGE[0], -sxy / sxx));
  const latest = pts[pts.length - 1];
  return { a: Math.exp(latest.y + g * latest.x), g };
}

/**
 * The rounds the projection fits: all but round 0 once three later rounds exist (a fit on two
 * points swings widely). Round 0's interval
 * comes from a surrogate fitted on the seed stage alone and is far wider than the rate the later
 * rounds follow, so it made the fitted curve too steep: on the seed-0 runs of digits and the
 * demo at budget 1,000 (two clusterings each) the projection made at 200 labels said 285, 194,
 * 375 and 368 labels in all where 450, 350, 900 and 750 were needed; without round 0 it says
 * 414, 298, 341 and 754 (issue #23, ESTIMATORS.md).
 */
function projectionHistory(history: readonly HistoryPoint[]): readonly HistoryPoint[] {
  return history.length >= 4 ? history.slice(1) : history;
}

export function stopDecision(history: readonly HistoryPoint[], options: StopRuleOptions = {}): StopDecision {
  const { maxWidth, maxMove, window } = { ...DEFAULTS, ...options };
  const poolSize = options.poolSize ?? Infinity;
  if (history.length === 0) throw new Error("stopDecision: empty history");
  const last = history[history.length - 1];
  const width = last.interval[1] - last.interval[0];
  let moved: number | null = null;
  if (history.length > window) {
    const recent = history.slice(-(window + 1)).map((h) => h.estimate);
    moved = Math.max(...recent) - Math.min(...recent);
  }
  const converged = width < maxWidth && moved !== null && moved < maxMove;
  let labelsStillNeeded: number | null;
  if (width < maxWidth) labelsStillNeeded = 0;
  else {
    const law = widthLaw(projectionHistory(history));
    if (!law) labelsStillNeeded = null;
    else {
      const needed = Math.min(Math.pow(maxWidth / law.a, -1 / law.g), poolSize);
      // (the 1e-6 keeps a rounding error from asking for one label more); still too wide is never "0 needed"
      labelsStillNeeded = Number.isFinite(needed) ? Math.max(1, Math.ceil(needed - last.nLabels - 1e-6)) : null;
    }
  }
  return { converged, width, moved, labelsStillNeeded };
}
