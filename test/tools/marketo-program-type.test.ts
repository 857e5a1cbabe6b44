import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import { runToolStep } from "../../src/tools/run.js";
import { recording } from "../helpers/recording-connector.js";

/** programs.json has no `type` parameter (Adobe's Swagger): the step filters by the programs' own type. */

const TYPES = ["Email", "Default", "Event", "Engagement", "Event with Webinar"];
const programs = (count: number, note = "") =>
  Array.from({ length: count }, (_, i) => ({ id: 1001 + i, type: TYPES[i % TYPES.length], note }));

interface Out {
  result: { id: number; type: string }[];
  warnings: string[];
  next_offset?: number;
}

async function browse(query: Record<string, unknown>, result: unknown[], method = "GET") {
  const { context, marketoCalls } = recording(result);
  const { data } = await runToolStep(
    "marketo_api_call",
    { method, endpoint: "/rest/asset/v1/programs.json", query_parameters: query },
    context,
  );
  return { out: data as Out, sent: marketoCalls };
}

describe("Marketo programs by type", () => {
  it("does not send type, keeps the programs of that type (any case) and says so", async () => {
    const { out, sent } = await browse({ type: "email", maxReturn: 10, offset: 20 }, programs(10));
    expect(sent[0]?.query).toEqual({ maxReturn: 10, offset: 20 });
    expect(out.result.map((p) => p.id)).toEqual([1001, 1006]);
    expect(out.warnings.at(-1)).toMatch(
      /no type parameter, so type was not sent: the 10 program\(s\) .* filtered here to type email \(2 kept\)\. maxReturn, offset, next_offset and max_items count programs before this filter/,
    );
  });

  it("knows Marketo's other names of the types: nurture, program, webinar", async () => {
    const types = async (type: string) =>
      (await browse({ type }, programs(10))).out.result.map((p) => p.type);
    expect(await types("nurture")).toEqual(["Engagement", "Engagement"]);
    expect(await types("Program")).toEqual(["Default", "Default"]);
    expect(await types("webinar")).toEqual(["Event with Webinar", "Event with Webinar"]);
    expect(await types("email,event")).toEqual(["Email", "Event", "Email", "Event"]);
  });

  it("refuses an unknown type before sending anything", async () => {
    const { context, marketoCalls } = recording();
    const error = await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/asset/v1/programs.json", query_parameters: { type: "newsletter" } },
      context,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: "query_parameters.type" });
    expect((error as Error).message).toMatch(
      /"newsletter" is not a Marketo program type; accepted: email, default/,
    );
    expect(marketoCalls).toHaveLength(0);
  });

  it("quotes an unknown type with its control characters escaped, and a type named constructor is unknown", async () => {
    const { context } = recording();
    const refusal = async (type: string) => {
      const error = await runToolStep(
        "marketo_api_call",
        { method: "GET", endpoint: "/rest/asset/v1/programs.json", query_parameters: { type } },
        context,
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      return error as ValidationError;
    };
    const forged = await refusal("x\nerror: forged\u001b[31m");
    expect(forged.message).toContain('"x\\nerror: forged\\u001b[31m" is not a Marketo program type');
    expect((await refusal("constructor")).message).toMatch(/"constructor" is not a Marketo program type/);
  });

  it("leaves type alone elsewhere (another endpoint, or a POST)", async () => {
    const { out, sent } = await browse({ type: "email" }, programs(5), "POST");
    expect(sent[0]?.query).toEqual({ type: "email" });
    expect(out.result).toHaveLength(5);
    const { context, marketoCalls } = recording();
    await runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/asset/v1/emails.json", query_parameters: { type: "x" } },
      context,
    );
    expect(marketoCalls[0]?.query).toEqual({ type: "x" });
  });

  it("when the output is capped, resumes after the last program shown, counted as Marketo counts", async () => {
    const page = programs(200, "x".repeat(2_000));
    const { out } = await browse({ type: "email", offset: 400, maxReturn: 200 }, page);
    expect(out.result.length).toBeGreaterThan(0);
    expect(out.result.length).toBeLessThan(40);
    const last = out.result.at(-1)!;
    expect(out.next_offset).toBe(400 + page.findIndex((p) => p.id === last.id) + 1);
    expect(out.warnings.join(" ")).toMatch(
      new RegExp(`${out.result.length} of the 40 records read are shown`),
    );
  });
});
