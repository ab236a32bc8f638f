/**
 * Okabe & Ito's colour-blind-safe palette (2008), yellow last since it fades on white paper, and
 * one dash pattern and marker per series, so a greyscale print still tells the clusterings apart.
 */
export const OKABE_ITO = ["#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"] as const;

/** SVG stroke-dasharray per series; "" is a solid line. */
export const DASHES = ["", "7 3", "2 2", "9 3 2 3", "4 4", "12 3", "1 3", "6 2 2 2 2 2"] as const;

export const MARKERS = ["circle", "square", "triangle", "diamond", "triangle-down", "cross", "plus", "star"] as const;
export type Marker = (typeof MARKERS)[number];

export interface SeriesStyle {
  readonly color: string;
  readonly dash: string;
  readonly marker: Marker;
}

/** The i-th series' style; beyond eight series colours repeat with another dash. */
export function seriesStyle(i: number): SeriesStyle {
  return { color: OKABE_ITO[i % OKABE_ITO.length], dash: DASHES[(i + Math.floor(i / OKABE_ITO.length)) % DASHES.length], marker: MARKERS[i % MARKERS.length] };
}
