import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import { runToolStep } from "../../src/tools/run.js";
import { contextReturning } from "../helpers/marketo-double.js";

const wide = (id: number) => ({ id, email: `lead${id}@example.com`, note: "x".repeat(400) });

interface Output {
  result: { id: number }[];
  complete: boolean;
  next_page_token?: string;
  next_offset?: number;
  next_cursor?: string;
  warnings: string[];
  extra?: Record<string, unknown>;
}

describe("Marketo API Call output cap", () => {
  it("cuts a token page and gives a cursor that re-reads it, skipping what was shown; never a token that skips", async () => {
    const { context, requests } = contextReturning({
      result: Array.from({ length: 300 }, (_, i) => wide(i + 1)),
      positions: [{ index: 0, at: { nextPageToken: "HERE" } }],
      next: { nextPageToken: "NEXT" },
      nextPageToken: "NEXT",
      extra: { lastPageToken: "LAST" },
    });
    const input = { method: "GET", endpoint: "/rest/v1/leads.json", query_parameters: { filterType: "id" } };
    const { data } = await runToolStep(
      "marketo_api_call",
      { ...input, query_parameters: { ...input.query_parameters, nextPageToken: "HERE" } },
      context,
    );
    const out = data as Output;
    expect(out.result.length).toBeGreaterThan(0);
    expect(out.result.length).toBeLessThan(300);
    expect(out.complete).toBe(false);
    expect(out.next_page_token).toBeUndefined();
    expect(out.extra?.lastPageToken).toBeUndefined();
    expect(out.warnings.join(" ")).toMatch(/cursor = next_cursor/);
    expect(out.warnings.join(" ")).not.toMatch(/next_page_token/);
    await runToolStep("marketo_api_call", { ...input, cursor: out.next_cursor }, context);
    expect(requests[1]).toMatchObject({ resume: { nextPageToken: "HERE", skip: out.result.length } });
    expect(requests[1]?.query).toEqual({ filterType: "id" });
  });

  it("resumes a cut asset page exactly at offset + shown", async () => {
    const { context } = contextReturning({
      result: Array.from({ length: 200 }, (_, i) => wide(i + 1)),
      positions: [{ index: 0, at: { offset: 200 } }],
      next: { offset: 400 },
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
    expect(out.next_cursor).toBeDefined();
  });

  it("passes the connector's own resume position through when nothing was cut", async () => {
    const { context } = contextReturning({
      result: [wide(1)],
      positions: [{ index: 0, at: {} }],
      next: { nextPageToken: "NEXT" },
      nextPageToken: "NEXT",
    });
    const { data, summary } = await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/v1/leads.json" },
      context,
    );
    expect((data as Output).next_page_token).toBe("NEXT");
    expect((data as Output).next_cursor).toBeDefined();
    expect(summary).toMatch(
      /more remain: to continue after the records shown, call again with cursor = next_cursor/,
    );
  });

  it("keeps everything it read for an adapter that keeps whole results", async () => {
    const all = Array.from({ length: 300 }, (_, i) => wide(i + 1));
    const { context } = contextReturning({ result: all, positions: [{ index: 0, at: {} }], complete: true });
    const result = await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/v1/leads.json" },
      { ...context, fullResults: { maxBytes: 1_000_000 } },
    );
    expect((result.data as Output).result.length).toBeLessThan(300);
    expect(result.full?.items).toEqual(all);
    expect(result.full?.nextCursor).toBeUndefined();
    expect((result.data as Output).warnings.join(" ")).toMatch(/full result linked/);
  });
});

describe("Marketo API Call cursors", () => {
  const input = {
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { fields: "id" },
  };
  const next = async () => {
    const { context } = contextReturning({
      result: [wide(1)],
      positions: [{ index: 0, at: {} }],
      next: { nextPageToken: "P2" },
    });
    const { data } = await runToolStep("marketo_api_call", input, context);
    return (data as Output).next_cursor as string;
  };
  const refusal = async (args: Record<string, unknown>) => {
    const { context, requests } = contextReturning({});
    const error = await runToolStep("marketo_api_call", args, context).catch((e: unknown) => e);
    expect(requests).toHaveLength(0);
    return error as ValidationError;
  };

  it("refuses a cursor that is not one of ours, naming the field", async () => {
    const error = await refusal({ ...input, cursor: "P2" });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: "cursor" });
    expect(error.message).toMatch(/not a cursor this tool returned/);
  });

  it("refuses a cursor of another request", async () => {
    const cursor = await next();
    const error = await refusal({ ...input, query_parameters: { fields: "id,email" }, cursor });
    expect(error.message).toMatch(/belongs to another request/);
  });

  it("refuses a cursor given with nextPageToken or offset of its own", async () => {
    const cursor = await next();
    const error = await refusal({ ...input, query_parameters: { fields: "id", nextPageToken: "X" }, cursor });
    expect(error).toMatchObject({ field: "query_parameters.nextPageToken" });
  });

  it("refuses a cursor from another version of the tool", async () => {
    const error = await refusal({ ...input, cursor: "c2.eyJ9" });
    expect(error.message).toMatch(/another version/);
  });
});
