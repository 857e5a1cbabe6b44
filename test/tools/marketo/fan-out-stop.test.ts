import { describe, expect, it } from "vitest";
import type { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import type { MarketoRequest } from "../../../src/connectors/marketo/types.js";
import { UpstreamError } from "../../../src/errors.js";
import { connectionFrom } from "../../../src/tools/connection-from.js";
import { runToolStep } from "../../../src/tools/run.js";
import type { ToolContext } from "../../../src/tools/types.js";

/**
 * A read of many ids (one `{id}` endpoint, a list of ids): a failure that is not Marketo refusing that id (here the
 * network) fails the call, and no id is sent after it: a slow id read still in flight may end, but the ids not yet
 * started never go out against the window.
 */
function connectorFailingOn(bad: string) {
  const sent: string[] = [];
  const connector = {
    async call(req: MarketoRequest) {
      const id = /program\/(\d+)\.json/.exec(String(req.path))?.[1] ?? "?";
      sent.push(id);
      await new Promise((resolve) => setTimeout(resolve, id === bad ? 5 : 30));
      if (id === bad) throw new Error("socket hang up");
      return {
        warnings: [],
        recordErrors: [],
        requestIds: [],
        pages: 1,
        callsUsed: 1,
        complete: true,
        extra: {},
        result: [{ id: Number(id), name: `Program ${id}` }],
      };
    },
  } as unknown as MarketoConnector;
  const context: ToolContext = {
    connection: connectionFrom({ marketo: async () => connector }),
    progress: () => undefined,
  };
  return { context, sent };
}

describe("a read of many ids that fails", () => {
  it("sends no id after a read fails the call", async () => {
    const { context, sent } = connectorFailingOn("1002");
    const ids = Array.from({ length: 40 }, (_, i) => 1001 + i);
    const answer = runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/asset/v1/program/{id}.json", query_parameters: { id: ids } },
      context,
    );
    await expect(answer).rejects.toThrow(/socket hang up/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The four in flight when 1002 failed, and nothing after: without the stop, all 40 are sent.
    expect(sent.length).toBeLessThanOrEqual(4);
    expect(sent).toContain("1002");
  });

  it("keeps reading the others when Marketo refuses one id with its own code", async () => {
    const sent: string[] = [];
    const connector = {
      async call(req: MarketoRequest) {
        const id = /program\/(\d+)\.json/.exec(String(req.path))?.[1] ?? "?";
        sent.push(id);
        if (id === "1002") throw new UpstreamError("Program not found", { serviceCode: "702" });
        return {
          warnings: [],
          recordErrors: [],
          requestIds: [],
          pages: 1,
          callsUsed: 1,
          complete: true,
          extra: {},
          result: [{ id: Number(id) }],
        };
      },
    } as unknown as MarketoConnector;
    const context: ToolContext = {
      connection: connectionFrom({ marketo: async () => connector }),
      progress: () => undefined,
    };
    const ids = Array.from({ length: 10 }, (_, i) => 1001 + i);
    await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/asset/v1/program/{id}.json", query_parameters: { id: ids } },
      context,
    );
    expect(sent.length).toBe(10);
  });
});
