import { expect, type Page } from "@playwright/test";

/** A Content-Security-Policy violation the page reported. */
export type Violation = { directive: string; blocked: string; source: string };

/** Records the page's CSP violations (events and console); the returned check expects none. */
export async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { __cspViolations: Violation[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push({ directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile }));
  });
  const console: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) console.push(m.text());
  });
  return async (where: string) => {
    const violations = await page.evaluate(() => (window as unknown as { __cspViolations: Violation[] }).__cspViolations);
    expect(violations, where).toEqual([]);
    expect(console, where).toEqual([]);
  };
}
