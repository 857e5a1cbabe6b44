/**
 * axe-core (https://github.com/dequelabs/axe-core) in a Playwright page: its script is evaluated through
 * the DevTools protocol, which the page's Content-Security-Policy does not govern (a script tag would be
 * refused, as it should be), then `axe.run` checks the page as it is.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** The page's axe violations of the given impacts (default: serious and critical). */
export async function axeViolations(
  page: Page | Frame,
  impacts: readonly string[] = ["serious", "critical"],
): Promise<AxeViolation[]> {
  if (!(await page.evaluate("typeof window.axe !== 'undefined'"))) await page.evaluate(AXE_SOURCE);
  const found = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((result) =>
    result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((node) => node.target.join(" ")),
    })))`)) as AxeViolation[];
  return found.filter((violation) => impacts.includes(violation.impact ?? ""));
}
