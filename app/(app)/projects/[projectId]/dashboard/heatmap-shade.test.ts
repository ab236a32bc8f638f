import { describe, expect, it } from "vitest";
import { heatmapShade } from "./heatmap-shade";

/** WCAG 2.1 relative luminance and contrast ratio. */
const luminance = (rgb: number[]) => {
  const [r, g, b] = rgb.map((v) => v / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const contrast = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe("heatmapShade", () => {
  it("keeps the cell's number at 4.5:1 or more at every share", () => {
    for (let i = 0; i <= 1000; i++) {
      const { background, text } = heatmapShade(i / 1000);
      expect(contrast(background, hex(text)), `share ${i / 1000}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("darkens as the share grows, so a larger share always looks larger", () => {
    const shades = Array.from({ length: 101 }, (_, i) => luminance(heatmapShade(i / 100).background));
    for (let i = 1; i < shades.length; i++) expect(shades[i]).toBeLessThan(shades[i - 1]);
  });
});
