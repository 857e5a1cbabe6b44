/**
 * The connector notes each call's outcome for the integrations card (trial s10, finding 5: "Set up, not
 * tested yet" for a Marketo that had answered 21 calls): calls answered since when, and the last one's
 * outcome. A request Marketo refused for what it asked was answered (the connection works); a call
 * that reached no Marketo failed, with its error's words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../../src/sandbox/index.js";
import { closedPort } from "../../helpers/fake-services/faults.js";

describe("the calls a Marketo connector saw", () => {
  let sandbox: MarketoSandbox;
  let now = 1_000;
  beforeAll(async () => {
    sandbox = await startMarketoSandbox({ leadCount: 50 });
  });
  afterAll(() => sandbox.close());

  const connector = (restEndpoint: string) =>
    new MarketoConnector(
      { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret, restEndpoint, maxRetries: 0 },
      { now: () => now },
    );

  it("counts the calls answered, from the first one's time, a refused request among them", async () => {
    const marketo = connector(sandbox.restEndpoint);
    expect(marketo.calls()).toEqual({ answered: 0 });
    await marketo.request({ method: "GET", path: "/rest/v1/lists.json" });
    now = 2_000;
    await marketo.request({
      method: "GET",
      path: "/rest/v1/leads.json",
      query: { filterType: "id", filterValues: "1" },
    });
    now = 3_000;
    // A field Marketo does not know: refused for what was asked, so answered.
    await expect(
      marketo.request({
        method: "GET",
        path: "/rest/v1/leads.json",
        query: { filterType: "noSuchField", filterValues: "x" },
      }),
    ).rejects.toThrow();
    expect(marketo.calls()).toEqual({ answered: 3, since: 1_000, last: { ok: true, at: 3_000 } });
  });

  it("says the last call failed, with its error's words, when it reached no Marketo", async () => {
    const marketo = connector(`http://127.0.0.1:${await closedPort()}/rest`);
    now = 4_000;
    const error = await marketo
      .request({ method: "GET", path: "/rest/v1/lists.json" })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(marketo.calls()).toEqual({
      answered: 0,
      last: { ok: false, at: 4_000, message: (error as Error).message },
    });
  });
});
