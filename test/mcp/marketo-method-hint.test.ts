import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s32, N462: GET /rest/asset/v1/emailTemplate/{id}/content.json was refused with Marketo's 605 "Request
 * method 'GET' not supported" and a hint to change the method; the fix was the path without ".json" (Adobe's
 * Asset Swagger: GET …/content reads a template's content, POST …/content.json updates it). The hint names the
 * path that takes the method, and calling it reads the content, for an id given in the path or per id.
 */
interface Records {
  result: Record<string, unknown>[];
}
const mkto = marketoOverMcp({});

describe("a method a path does not serve", () => {
  it("is refused with the path that serves it, and calling that path works", async () => {
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/emailTemplate/1001/content.json",
    });
    expect(refused.result.isError).toBe(true);
    const fix = /Call (GET) (\S+)\.$/.exec(refused.first);
    expect(fix?.[2]).toBe("/rest/asset/v1/emailTemplate/1001/content");
    const read = await mkto.ok<Records>({ method: fix?.[1], endpoint: fix?.[2] });
    expect(read.data.result[0]).toHaveProperty("content");

    const perId = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/emailTemplate/{id}/content.json",
      query_parameters: { id: [1001, 1002] },
    });
    // Said of the endpoint with its {placeholder} (review s37, 7): doing it reads every id asked.
    const template = /Call (GET) (\S+)\.$/.exec(perId.first)?.[2];
    expect(template).toBe("/rest/asset/v1/emailTemplate/{id}/content");
    const all = await mkto.ok<Records>({
      method: "GET",
      endpoint: template,
      query_parameters: { id: [1001, 1002] },
    });
    expect(all.data.result).toHaveLength(2);
  });
});
