import { describe, expect, it } from "vitest";
import type { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import type { MarketoCallResult, MarketoRequest } from "../../src/connectors/marketo/types.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/types.js";

const wide = (id: number) => ({ id, email: `lead${id}@example.com`, note: "x".repeat(400) });

/** A connector double: returns one canned result and records the request. */
function contextReturning(result: Partial<MarketoCallResult>) {
  const requests: MarketoRequest[] = [];
  const connector = {
    async call(req: MarketoRequest) {
      requests.push(req);
      return {
        warnings: [],
        recordErrors: [],
        requestIds: [],
        pages: 1,
        callsUsed: 1,
        complete: false,
        extra: {},
        result: [],
        ...result,
      };
    },
    async usage() {
      return {
        callsToday: 1,
        dailyQuota: 50_000,
        remaining: 49_999,
        windowCalls: 1,
        callsPerWindow: 100,
        windowMs: 20_000,
      };
    },
  } as unknown as MarketoConnector;
  const context: ToolContext = {
    marketo: async () => connector,
    google: async () => {
      throw new Error("unused");
    },
    progress: () => undefined,
  };
  return { context, requests };
}

interface Output {
  result: { id: number }[];
  complete: boolean;
  next_page_token?: string;
  next_offset?: number;
  warnings: string[];
  extra?: Record<string, unknown>;
}

describe("Marketo API Call output cap", () => {
  it("never returns a token that would skip records cut from a token page", async () => {
    const { context } = contextReturning({
      result: Array.from({ length: 300 }, (_, i) => wide(i + 1)),
      nextPageToken: "NEXT",
      extra: { lastPageToken: "LAST" },
    });
    const { data } = await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/v1/leads.json", query_parameters: { nextPageToken: "HERE" } },
      context,
    );
    const out = data as Output;
    expect(out.result.length).toBeGreaterThan(0);
    expect(out.result.length).toBeLessThan(300);
    expect(out.complete).toBe(false);
    expect(out.next_page_token).toBeUndefined();
    expect(out.extra?.lastPageToken).toBeUndefined();
    expect(out.warnings.join(" ")).toMatch(
      new RegExp(`batchSize ${out.result.length} from nextPageToken HERE`),
    );
  });

  it("resumes a cut asset page exactly at offset + shown", async () => {
    const { context } = contextReturning({
      result: Array.from({ length: 200 }, (_, i) => wide(i + 1)),
      nextOffset: 400,
    });
    const { data } = await runToolStep(
      "marketo_api_call",
      {
        method: "GET",
        endpoint: "/rest/asset/v1/programs.json",
        query_parameters: { offset: 200, maxReturn: 200 },
      },
      context,
    );
    const out = data as Output;
    expect(out.result.length).toBeLessThan(200);
    expect(out.next_offset).toBe(200 + out.result.length);
  });

  it("passes the connector's own resume position through when nothing was cut", async () => {
    const { context } = contextReturning({ result: [wide(1)], nextPageToken: "NEXT" });
    const { data } = await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/v1/leads.json" },
      context,
    );
    expect((data as Output).next_page_token).toBe("NEXT");
  });
});
