/**
 * Whether leads are on a list after an add or remove (console/src/marketo/list-membership.ts and
 * list-rows.ts; trial s8, finding 1: nothing showed the leads were now members): the page reads Member of
 * List back on the Marketo sandbox and each row of the result says "yes", "no", or what it could not tell.
 * The page's own code runs in Node, its fetch sent to the console with a logged-in session.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";
import { pageFetchOn, pageModule } from "../helpers/page-code.js";

const STEP = "marketo_api_call";
type Input = Record<string, unknown>;
type Membership = ReadonlyMap<string, boolean> | "reading" | "unread";

/** What this test uses of the page's modules (see pageModule). */
interface PageModules {
  listChangeOf(input: Input): { list: string; ids: string[] } | undefined;
  readMembership(
    step: string,
    list: string,
    ids: string[],
    signal: AbortSignal,
  ): Promise<Map<string, boolean>>;
  listRows(
    result: { type: "result"; data: Input },
    leads: ReadonlyMap<string, unknown>,
    already: ReadonlySet<string>,
    members: Membership,
  ): Record<string, unknown>[] | undefined;
  runStep(step: string, input: unknown, signal: AbortSignal): AsyncGenerator<{ type: string }>;
}

describe("list membership read back after a change, on the sandbox", { timeout: 60_000 }, () => {
  let fixture: ConsoleFixture;
  let page: PageModules;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    await pageFetchOn(fixture);
    page = {
      ...(await pageModule("list-membership", "marketo")),
      ...(await pageModule("list-rows", "marketo")),
      ...(await pageModule("api")),
    } as unknown as PageModules;
  }, 60_000);

  afterAll(async () => {
    vi.unstubAllGlobals();
    await fixture?.close();
  });

  const run = async (input: Input) => {
    for await (const event of page.runStep(STEP, input, signal)) if (event.type === "result") return event;
    throw new Error("the run gave no result");
  };

  it("reads the list and leads of an add (ids in the body) and a remove (ids as `id`), nothing else", () => {
    const endpoint = "/rest/v1/lists/1009/leads.json";
    expect(page.listChangeOf({ method: "POST", endpoint, body: { input: [{ id: 7 }, { id: 8 }] } })).toEqual({
      list: "1009",
      ids: ["7", "8"],
    });
    expect(page.listChangeOf({ method: "DELETE", endpoint, query_parameters: { id: [7] } })).toEqual({
      list: "1009",
      ids: ["7"],
    });
    expect(page.listChangeOf({ method: "GET", endpoint })).toBeUndefined();
    expect(
      page.listChangeOf({ method: "POST", endpoint: "/rest/v1/campaigns/1/trigger.json" }),
    ).toBeUndefined();
  });

  it("says per lead whether it is on the list now, as Marketo answers after the add and the remove", async () => {
    const list = "1010";
    const endpoint = `/rest/v1/lists/${list}/leads.json`;
    // Lead 7 off the list first (whatever the seed put there), lead 999999 unknown to Marketo.
    await run({ method: "DELETE", endpoint, query_parameters: { id: [7] } });
    const added = await run({ method: "POST", endpoint, body: { input: [{ id: 7 }, { id: 999999 }] } });
    const after = await page.readMembership(STEP, list, ["7", "999999"], signal);
    expect([...after]).toEqual([["7", true]]);
    const rows = page.listRows(added as never, new Map(), new Set(), after) ?? [];
    expect(rows.map((row) => [row["Lead ID"], row["On the list now"]])).toEqual([
      [7, "yes"],
      [999999, "unknown to Marketo"],
    ]);
    const removed = await run({ method: "DELETE", endpoint, query_parameters: { id: [7] } });
    const gone = await page.readMembership(STEP, list, ["7"], signal);
    expect(page.listRows(removed as never, new Map(), new Set(), gone)?.[0]?.["On the list now"]).toBe("no");
    // While it is read, and when it cannot be.
    expect(page.listRows(removed as never, new Map(), new Set(), "reading")?.[0]?.["On the list now"]).toBe(
      "checking…",
    );
    expect(page.listRows(removed as never, new Map(), new Set(), "unread")?.[0]?.["On the list now"]).toBe(
      "could not be checked",
    );
  });
});
