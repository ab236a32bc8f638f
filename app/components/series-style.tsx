/**
 * How a clustering is drawn in every chart and legend: an Okabe-Ito hue (colour-blind safe; the
 * five kept have >= 3:1 contrast on white) and a marker shape of its own, so no reader needs
 * colour to tell the lines apart. Five hues x four shapes give twenty distinct styles.
 */
const HUES = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000"];
const SHAPES = ["circle", "square", "triangle", "diamond"] as const;
export type MarkerShape = (typeof SHAPES)[number];

export interface SeriesStyle {
  color: string;
  shape: MarkerShape;
}

/** One style per clustering, by its place in the project's list (stable across metrics). */
export function seriesStyles(names: string[]): Record<string, SeriesStyle> {
  return Object.fromEntries(names.map((name, i) => [name, { color: HUES[i % HUES.length], shape: SHAPES[i % SHAPES.length] }]));
}

/** The marker as an SVG element centred on (cx, cy), r its half-width. */
export function SeriesMarker({ style, cx, cy, r, opacity = 1 }: { style: SeriesStyle; cx: number; cy: number; r: number; opacity?: number }) {
  const common = { fill: style.color, fillOpacity: opacity, stroke: "white", strokeWidth: 0.75 };
  if (style.shape === "circle") return <circle cx={cx} cy={cy} r={r} {...common} />;
  if (style.shape === "square") return <rect x={cx - r * 0.85} y={cy - r * 0.85} width={r * 1.7} height={r * 1.7} {...common} />;
  if (style.shape === "triangle") return <path d={`M${cx},${cy - r * 1.1}L${cx + r},${cy + r * 0.75}L${cx - r},${cy + r * 0.75}Z`} {...common} />;
  return <path d={`M${cx},${cy - r * 1.2}L${cx + r * 1.2},${cy}L${cx},${cy + r * 1.2}L${cx - r * 1.2},${cy}Z`} {...common} />;
}

/** The marker inline in text (a legend entry in a table row); the name beside it says the rest. */
export function SeriesGlyph({ style }: { style: SeriesStyle }) {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden className="mr-1.5 inline-block align-[-1px]">
      <SeriesMarker style={style} cx={6} cy={6} r={4.5} />
    </svg>
  );
}
