import { expect } from "vitest";
import { type MarketoMcp, marketoOverMcp } from "../../helpers/marketo-mcp.js";

/** What the advice tests read of an answer. */
export interface AdviceAnswer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  next_page_token?: string;
  next_offset?: number;
  warnings: string[];
}
export type Args = Record<string, unknown>;

/**
 * A file's sandbox and session (export jobs complete in 20 ms) with the two calls its advice tests make:
 * one that must work, and one that must be refused, giving the refusal's message.
 */
export function adviceCalls(): {
  mkto: MarketoMcp;
  ok(args: Args): Promise<AdviceAnswer>;
  refused(args: Args): Promise<string>;
} {
  const mkto = marketoOverMcp({ bulkJobMs: 20 });
  return {
    mkto,
    ok: async (args) => (await mkto.ok<AdviceAnswer>(args)).data,
    async refused(args) {
      const { result, first } = await mkto.call(args);
      expect(result.isError, first).toBe(true);
      return first;
    },
  };
}
