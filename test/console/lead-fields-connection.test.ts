/**
 * A Marketo export's filter names lead fields by their display names, read with Describe Lead2
 * (console/src/marketo/lead-fields.ts). The fields are kept per Marketo connection, not per page load (issue
 * 28 review): after the connection is switched to another instance, the fields offered are read from that
 * instance, never the first one's; switching back reads nothing again. On two Marketo sandboxes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/index.js";
import { type ConsoleFixture, type ConsolePage, startConsoleFixture } from "../helpers/console.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";
import { pageFetchOn, pageModule } from "../helpers/page-code.js";

const DESCRIBE = "/rest/v1/leads/describe2.json";
type Fields = { api: string; ui: string }[];

describe("lead fields per Marketo connection", { timeout: 120_000 }, () => {
  let fixture: ConsoleFixture;
  let other: MarketoSandbox;
  let session: ConsolePage;
  let leadFields: (step: string) => Promise<Fields>;
  const describes = (sandbox: MarketoSandbox) => sandbox.stats().callsByPath[DESCRIBE] ?? 0;
  const connect = (sandbox: MarketoSandbox) =>
    session.json("POST", "/console/api/marketo", {
      clientId: sandbox.clientId,
      clientSecret: CANARY_SECRET,
      restEndpoint: sandbox.restEndpoint,
    });

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    other = await startMarketoSandbox({ clientId: "other-client-id", clientSecret: CANARY_SECRET });
    session = await pageFetchOn(fixture);
    const filters = (await pageModule("lead-fields", "marketo")) as {
      marketoLeadFields: (step: string) => Promise<Fields>;
    };
    leadFields = filters.marketoLeadFields;
  }, 60_000);

  afterAll(async () => {
    vi.unstubAllGlobals();
    await other?.close();
    await fixture?.close();
  });

  it("reads the fields again from the instance switched to, and not again for one already read", async () => {
    const first = await leadFields("marketo_api_call");
    expect(first.find((field) => field.api === "email")?.ui).toBe("Email Address");
    expect([describes(fixture.marketo), describes(other)]).toEqual([1, 0]);
    await leadFields("marketo_api_call");
    expect([describes(fixture.marketo), describes(other)]).toEqual([1, 0]);

    await connect(other);
    const switched = await leadFields("marketo_api_call");
    expect(switched.length).toBeGreaterThan(0);
    expect([describes(fixture.marketo), describes(other)]).toEqual([1, 1]);

    await connect(fixture.marketo);
    await leadFields("marketo_api_call");
    expect([describes(fixture.marketo), describes(other)]).toEqual([1, 1]);
  });
});
