import type { Page } from "playwright-core";
import { expect } from "vitest";
import { axeViolations } from "./axe.js";

/**
 * The screen as a person sees it, once the page is quiet: no serious or critical axe violation and no
 * sideways scroll of the page. Each failure names the screen. The console e2e files call it before each
 * screenshot.
 */
export async function expectPersonScreen(page: Page, screen: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  expect({ screen, violations: await axeViolations(page) }).toEqual({ screen, violations: [] });
  const scroll = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]");
  const [scrollWidth, innerWidth] = scroll as [number, number];
  expect({ screen, scrollWidth }).toEqual({ screen, scrollWidth: Math.min(scrollWidth, innerWidth) });
}
