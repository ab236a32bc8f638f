import type { Marker } from "./palette";

/**
 * The few SVG pieces the report's figures are drawn from: escaped text, "nice" axis ticks
 * (1, 2, 5 x 10^k steps), a linear scale and series markers. Figures are standalone SVG 1.1
 * with a white background and no CSS, so they print and embed as they are.
 */
export const FONT = "Helvetica, Arial, sans-serif";

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** Ticks from at or below `min` to at or above `max`, at the 1-2-5 step whose count is nearest `count`. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const power = 10 ** Math.floor(Math.log10((max - min) / Math.max(1, count)));
  const steps = [1, 2, 5, 10].map((m) => m * power);
  const span = (step: number) => Math.ceil(max / step - 1e-9) - Math.floor(min / step + 1e-9);
  const step = steps.reduce((best, s) => (Math.abs(span(s) - count) < Math.abs(span(best) - count) ? s : best));
  const ticks: number[] = [];
  for (let i = Math.floor(min / step + 1e-9); i <= Math.ceil(max / step - 1e-9); i++) ticks.push(Number((i * step).toFixed(12)));
  return ticks;
}

/** Decimals that print every tick of a 1-2-5 sequence distinctly. */
export function tickDecimals(ticks: readonly number[]): number {
  if (ticks.length < 2) return 2;
  return Math.max(0, -Math.floor(Math.log10(ticks[1] - ticks[0]) + 1e-9));
}

export type Scale = (value: number) => number;

export function linearScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Scale {
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

export const num = (v: number) => Number(v.toFixed(2)).toString();

export function text(x: number, y: number, content: string, attrs = ""): string {
  return `<text x="${num(x)}" y="${num(y)}" font-family="${FONT}" ${attrs}>${escapeXml(content)}</text>`;
}

/** A marker of radius r centred on (x, y). */
export function marker(shape: Marker, x: number, y: number, r: number, color: string): string {
  const pts = (list: [number, number][]) => list.map(([px, py]) => `${num(x + px * r)},${num(y + py * r)}`).join(" ");
  const filled = `fill="${color}" stroke="${color}"`;
  switch (shape) {
    case "circle":
      return `<circle cx="${num(x)}" cy="${num(y)}" r="${num(r)}" ${filled}/>`;
    case "square":
      return `<rect x="${num(x - r * 0.85)}" y="${num(y - r * 0.85)}" width="${num(r * 1.7)}" height="${num(r * 1.7)}" ${filled}/>`;
    case "triangle":
      return `<polygon points="${pts([[0, -1.15], [1, 0.75], [-1, 0.75]])}" ${filled}/>`;
    case "triangle-down":
      return `<polygon points="${pts([[0, 1.15], [1, -0.75], [-1, -0.75]])}" ${filled}/>`;
    case "diamond":
      return `<polygon points="${pts([[0, -1.2], [1, 0], [0, 1.2], [-1, 0]])}" ${filled}/>`;
    case "cross":
      return `<path d="M${num(x - r)},${num(y - r)}L${num(x + r)},${num(y + r)}M${num(x - r)},${num(y + r)}L${num(x + r)},${num(y - r)}" stroke="${color}" stroke-width="1.6"/>`;
    case "plus":
      return `<path d="M${num(x - r)},${num(y)}L${num(x + r)},${num(y)}M${num(x)},${num(y - r)}L${num(x)},${num(y + r)}" stroke="${color}" stroke-width="1.6"/>`;
    case "star":
      return `<polygon points="${pts(Array.from({ length: 10 }, (_, i) => { const a = (Math.PI * i) / 5 - Math.PI / 2; const s = i % 2 ? 0.5 : 1.2; return [Math.cos(a) * s, Math.sin(a) * s] as [number, number]; }))}" ${filled}/>`;
  }
}

export function svgDocument(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}
