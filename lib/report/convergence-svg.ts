import { seriesStyle } from "./palette";
import { linearScale, marker, niceTicks, num, svgDocument, text, tickDecimals } from "./svg";

/**
 * The convergence figure: per metric a panel of each clustering's estimate against the number of
 * labels, its interval as a band, and its true value (reference labels) as a thin dashed line;
 * one legend for all panels. Print sizes: 11 pt-ish text on a 2-column grid of 430 x 290 panels.
 */
export interface ConvergencePoint {
  readonly x: number;
  readonly y: number;
  readonly lo: number | null;
  readonly hi: number | null;
}

export interface ConvergenceSeries {
  readonly name: string;
  readonly points: readonly ConvergencePoint[];
  readonly truth: number | null;
}

export interface ConvergencePanel {
  /** the metric's printed name, e.g. "NMI" */
  readonly metric: string;
  readonly series: readonly ConvergenceSeries[];
}

export interface ConvergenceFigure {
  readonly panels: readonly ConvergencePanel[];
  /** the interval's level, e.g. 0.9 */
  readonly level: number;
  readonly title: string;
}

const PANEL_W = 430;
const PANEL_H = 290;
const MARGIN = { left: 58, right: 16, top: 30, bottom: 46 };
const LEGEND_ROW = 18;
const TRUTH_DASH = "3 2";

/** The clusterings in a stable order with their styles, shared by every panel and the legend. */
function styles(panels: readonly ConvergencePanel[]) {
  const names = [...new Set(panels.flatMap((p) => p.series.map((s) => s.name)))].sort((a, b) => a.localeCompare(b));
  return new Map(names.map((name, i) => [name, seriesStyle(i)]));
}

function legend(width: number, byName: ReturnType<typeof styles>, level: number, hasTruth: boolean): { svg: string[]; height: number } {
  const entries: { width: number; draw: (x: number, y: number) => string[] }[] = [];
  for (const [name, style] of byName) {
    entries.push({
      width: 38 + name.length * 6.4,
      draw: (x, y) => [
        `<line x1="${num(x)}" y1="${num(y)}" x2="${num(x + 26)}" y2="${num(y)}" stroke="${style.color}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ""}/>`,
        marker(style.marker, x + 13, y, 3.5, style.color),
        text(x + 32, y + 4, name, 'font-size="11" fill="#111"'),
      ],
    });
  }
  const band = `${Math.round(level * 100)}% interval`;
  entries.push({
    width: 38 + band.length * 6.4,
    draw: (x, y) => [`<rect x="${num(x)}" y="${num(y - 5)}" width="26" height="10" fill="#555" fill-opacity="0.18"/>`, text(x + 32, y + 4, band, 'font-size="11" fill="#111"')],
  });
  if (hasTruth) {
    const label = "true value (reference labels)";
    entries.push({
      width: 38 + label.length * 6.2,
      draw: (x, y) => [`<line x1="${num(x)}" y1="${num(y)}" x2="${num(x + 26)}" y2="${num(y)}" stroke="#111" stroke-width="1" stroke-dasharray="${TRUTH_DASH}"/>`, text(x + 32, y + 4, label, 'font-size="11" fill="#111"')],
    });
  }
  const svg: string[] = [];
  let x = MARGIN.left;
  let row = 0;
  for (const e of entries) {
    if (x + e.width > width - MARGIN.right && x > MARGIN.left) {
      x = MARGIN.left;
      row++;
    }
    svg.push(...e.draw(x, 40 + row * LEGEND_ROW));
    x += e.width + 10;
  }
  return { svg, height: 40 + (row + 1) * LEGEND_ROW };
}

function panel(p: ConvergencePanel, ox: number, oy: number, byName: ReturnType<typeof styles>): string[] {
  const points = p.series.flatMap((s) => s.points);
  const xs = points.map((q) => q.x);
  const ys = [...points.flatMap((q) => [q.y, q.lo ?? q.y, q.hi ?? q.y]), ...p.series.flatMap((s) => (s.truth === null ? [] : [s.truth]))];
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yTicks = niceTicks(Math.min(...ys), Math.max(...ys) === Math.min(...ys) ? Math.min(...ys) + 0.1 : Math.max(...ys), 5);
  const xTicks = niceTicks(xMin, xMax === xMin ? xMin + 1 : xMax, 6);
  const x0 = ox + MARGIN.left;
  const x1 = ox + PANEL_W - MARGIN.right;
  const y0 = oy + PANEL_H - MARGIN.bottom;
  const y1 = oy + MARGIN.top;
  const xDomain: [number, number] = [xTicks[0], xTicks.at(-1)!];
  const yDomain: [number, number] = [yTicks[0], yTicks.at(-1)!];
  const sx = linearScale(xDomain, [x0, x1]);
  const sy = linearScale(yDomain, [y0, y1]);
  const yd = tickDecimals(yTicks);
  const out: string[] = [text(x0, oy + 18, p.metric, 'font-size="13" font-weight="bold" fill="#111"')];
  for (const t of yTicks) {
    out.push(`<line x1="${num(x0)}" y1="${num(sy(t))}" x2="${num(x1)}" y2="${num(sy(t))}" stroke="#e5e5e5" stroke-width="0.8"/>`);
    out.push(text(x0 - 6, sy(t) + 4, t.toFixed(yd), 'font-size="10.5" fill="#333" text-anchor="end"'));
  }
  for (const t of xTicks) {
    out.push(`<line x1="${num(sx(t))}" y1="${num(y0)}" x2="${num(sx(t))}" y2="${num(y0 + 4)}" stroke="#333"/>`);
    out.push(text(sx(t), y0 + 16, String(t), 'font-size="10.5" fill="#333" text-anchor="middle"'));
  }
  out.push(`<path d="M${num(x0)},${num(y1)}V${num(y0)}H${num(x1)}" fill="none" stroke="#333" stroke-width="1"/>`);
  out.push(text((x0 + x1) / 2, y0 + 36, "Labels used (items)", 'font-size="11.5" fill="#111" text-anchor="middle"'));
  out.push(text(ox + 16, (y0 + y1) / 2, `${p.metric} estimate`, `font-size="11.5" fill="#111" text-anchor="middle" transform="rotate(-90 ${num(ox + 16)} ${num((y0 + y1) / 2)})"`));
  for (const s of p.series) {
    const style = byName.get(s.name)!;
    const banded = s.points.filter((q) => q.lo !== null && q.hi !== null);
    if (banded.length) {
      const upper = banded.map((q) => `${num(sx(q.x))},${num(sy(q.hi!))}`);
      const lower = banded.map((q) => `${num(sx(q.x))},${num(sy(q.lo!))}`).reverse();
      out.push(`<polygon points="${[...upper, ...lower].join(" ")}" fill="${style.color}" fill-opacity="0.14" stroke="none"/>`);
    }
  }
  for (const s of p.series) {
    const style = byName.get(s.name)!;
    if (s.truth !== null) out.push(`<line x1="${num(x0)}" y1="${num(sy(s.truth))}" x2="${num(x1)}" y2="${num(sy(s.truth))}" stroke="${style.color}" stroke-width="1" stroke-dasharray="${TRUTH_DASH}"/>`);
    const line = s.points.map((q, i) => `${i ? "L" : "M"}${num(sx(q.x))},${num(sy(q.y))}`).join("");
    out.push(`<path d="${line}" fill="none" stroke="${style.color}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ""}/>`);
    for (const q of s.points) out.push(marker(style.marker, sx(q.x), sy(q.y), 3.5, style.color));
  }
  return out;
}

export function convergenceSvg(figure: ConvergenceFigure): string {
  const columns = Math.min(2, Math.max(1, figure.panels.length));
  const rows = Math.ceil(figure.panels.length / columns);
  const width = columns * PANEL_W;
  const byName = styles(figure.panels);
  const hasTruth = figure.panels.some((p) => p.series.some((s) => s.truth !== null));
  const head = legend(width, byName, figure.level, hasTruth);
  const body = [text(MARGIN.left, 20, figure.title, 'font-size="13" fill="#111"'), ...head.svg];
  figure.panels.forEach((p, i) => body.push(...panel(p, (i % columns) * PANEL_W, head.height + Math.floor(i / columns) * PANEL_H, byName)));
  return svgDocument(width, head.height + rows * PANEL_H, figure.title, body);
}
