import { expect, type Locator, type Page } from "@playwright/test";

/** The focused element's name (as a person would call it) and whether its focus shows. */
const focusedNow = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "(body)", ring: true };
    const style = getComputedStyle(el);
    const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== "none";
    const name = el.getAttribute("aria-label") ?? (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
    return { name: `${el.tagName.toLowerCase()} "${name}"`, ring };
  });

/**
 * Presses Tab until `target` has focus, checking on the way that every control it stops at shows
 * a focus ring; returns the stops before the target, in order.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<string[]> {
  const passed: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const now = await focusedNow(page);
    expect(now.ring, `${now.name} has focus but no visible focus ring`).toBe(true);
    if (await target.evaluate((el) => el === document.activeElement)) return passed;
    passed.push(now.name);
  }
  throw new Error(`Tab never reached the target; it passed ${passed.join(" | ")}`);
}
