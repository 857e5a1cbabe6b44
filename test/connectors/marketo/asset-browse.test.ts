import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../../src/sandbox/marketo/index.js";

describe("an unpaginated asset browse call", () => {
  let sandbox: MarketoSandbox;
  let marketo: MarketoConnector;
  beforeAll(async () => {
    sandbox = await startMarketoSandbox();
    marketo = new MarketoConnector({
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      restEndpoint: sandbox.restEndpoint,
    });
  });
  afterAll(async () => sandbox.close());

  it("says more remain after Marketo's default page of 20, with the offset to continue from", async () => {
    const first = await marketo.call({ method: "GET", path: "/rest/asset/v1/programs.json" });
    expect(first.result).toHaveLength(20);
    expect(first.complete).toBe(false);
    expect(first.nextOffset).toBe(20);
    const rest = await marketo.call({
      method: "GET",
      path: "/rest/asset/v1/programs.json",
      query: { offset: first.nextOffset },
    });
    expect(rest.result).toHaveLength(10);
    expect(rest.complete).toBe(true);
    expect(rest.nextOffset).toBeUndefined();
  });
});
