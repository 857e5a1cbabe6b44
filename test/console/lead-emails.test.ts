/**
 * Leads pasted as emails (console/src/marketo/lead-emails.ts, issue 28 review): a list longer than the 300
 * values Get Leads by Filter Type takes is looked up in parts of 300, all of them, on the Marketo sandbox
 * (whose leads n have id n and email lead{n}@example.com, and which refuses more than 300 filterValues).
 * Property (fast-check, fixed seed): every known email becomes its lead's id, every email no lead has is said
 * unknown, whatever the list's length; none is unknown because of the cap. The page's own code runs in Node,
 * its fetch sent to the console over the sandbox with a logged-in session.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";
import { pageFetchOn, pageModule } from "../helpers/page-code.js";

const STEP = "marketo_api_call";

/** What this test uses of the page's modules (see pageModule). */
interface PageModules {
  leadsFromEmails(
    step: string,
    text: string,
    signal: AbortSignal,
  ): Promise<{ ids: string; leads: Map<string, unknown>; unknown: string[] }>;
  readLeads(step: string, wanted: string[], signal: AbortSignal): Promise<Map<string, { email?: unknown }>>;
}

describe("leads pasted as emails, on the sandbox", { timeout: 120_000 }, () => {
  let fixture: ConsoleFixture;
  let page: PageModules;
  /** The filterValues of every Get Leads read the page sent. */
  const reads: string[][] = [];

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    await pageFetchOn(fixture, (input) => {
      const values = (input.query_parameters as { filterValues?: unknown } | undefined)?.filterValues;
      if (typeof values === "string") reads.push(values.split(","));
    });
    page = {
      ...(await pageModule("lead-emails", "marketo")),
      ...(await pageModule("useTriggeredLeads", "marketo")),
    } as unknown as PageModules;
  }, 60_000);

  afterAll(async () => {
    vi.unstubAllGlobals();
    await fixture?.close();
  });

  it("finds every lead of a list of 301 to 700 emails, reading 300 at most at a time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 301, max: 700 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 4_000 }), { minLength: 0, maxLength: 5 }),
        async (count, missing) => {
          reads.length = 0;
          // Leads 1..count, with a few addresses no lead has spread among them.
          const known = Array.from({ length: count }, (_, at) => at + 1);
          const unknownEmails = missing.map((n) => `nobody${n}@example.org`);
          const typed = [...known.map((n) => `lead${n}@example.com`), ...unknownEmails];
          const leads = await page.leadsFromEmails(STEP, typed.join("\n"), new AbortController().signal);
          expect(leads.unknown).toEqual(unknownEmails);
          expect(leads.ids).toBe(known.join(", "));
          expect(leads.leads.size).toBe(count);
          expect(reads.length).toBe(Math.ceil(typed.length / 300));
          for (const values of reads) expect(values.length).toBeLessThanOrEqual(300);
        },
      ),
      { seed: 28_01, numRuns: 4 },
    );
  });

  it("reads the names of more than 300 leads by id", async () => {
    const ids = Array.from({ length: 450 }, (_, at) => String(at + 1));
    const found = await page.readLeads(STEP, ids, new AbortController().signal);
    expect([...found.keys()].sort((a, b) => Number(a) - Number(b))).toEqual(ids);
    expect(found.get("450")?.email).toBe("lead450@example.com");
  });
});
