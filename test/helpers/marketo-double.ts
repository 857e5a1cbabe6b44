import type { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import type { MarketoCallResult, MarketoRequest } from "../../src/connectors/marketo/types.js";
import { connectionFrom } from "../../src/tools/connection-from.js";
import type { ToolContext } from "../../src/tools/types.js";

/** A connector double: returns one canned result and records the request. */
export function contextReturning(result: Partial<MarketoCallResult>) {
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
    connection: connectionFrom({ marketo: async () => connector }),
    progress: () => undefined,
  };
  return { context, requests };
}
