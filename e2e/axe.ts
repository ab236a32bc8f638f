import axe from "axe-core";
import { expect, type Page } from "@playwright/test";

/** The scan's rule set: WCAG 2.0 and 2.1, levels A and AA. */
const WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * axe-core's findings on the page as it is now. Its source goes in through page.evaluate, which
 * a Content-Security-Policy does not govern (a <script> tag it would block).
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    const { violations } = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary ?? "" })),
    }));
  }, WCAG21_AA);
}

/** Fails with every violation spelled out (rule, elements, why), so a report reads as a to-do list. */
export async function expectAccessible(page: Page, what: string) {
  const violations = await axeViolations(page);
  const report = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target}\n    ${n.summary.replaceAll("\n", "\n    ")}`).join("\n")}`);
  expect.soft(report, `${what}: WCAG 2.1 A/AA violations`).toEqual([]);
}
