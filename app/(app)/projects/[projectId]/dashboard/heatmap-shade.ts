/**
 * A contingency cell's shade for its share of the class, and a text colour that reads on it at
 * >= 4.5:1 (WCAG AA). No shade reads at 4.5:1 with both dark and white text, so the scale skips
 * that middle band: up to half the class, light indigo under dark text; above, dark under white.
 */
const INDIGO = [55, 48, 163]; // indigo-800: one hue, so the scale reads the same to colour-blind eyes
const DARK_TEXT = "#0f172b";

export function heatmapShade(share: number): { background: [number, number, number]; text: string } {
  const dark = share > 0.5;
  const alpha = dark ? 0.72 + 0.28 * ((share - 0.5) / 0.5) : 0.08 + 0.54 * (share / 0.5);
  // blended over the white card, so the colour on screen is the colour checked
  const background = INDIGO.map((c) => Math.round(alpha * c + (1 - alpha) * 255)) as [number, number, number];
  return { background, text: dark ? "#ffffff" : DARK_TEXT };
}
