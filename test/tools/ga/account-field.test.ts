import { describe, expect, it } from "vitest";
import { toJsonSchema } from "../../../src/schemas/json-schema.js";
import { accountField } from "../../../src/tools/ga/account-field.js";
import { TOOL_STEPS } from "../../../src/tools/registry.js";

const GA_STEPS = TOOL_STEPS.filter((step) => step.service === "google_analytics");

describe("account field", () => {
  it("with no connected account: an optional free label", () => {
    const field = accountField({ accounts: [] });
    expect(field.parse(undefined)).toBeUndefined();
    expect(field.parse("later")).toBe("later");
  });

  it("with one account: an enum defaulting to it", () => {
    const field = accountField({ accounts: ["marketing"] });
    expect(field.parse(undefined)).toBe("marketing");
    expect(field.safeParse("sales").success).toBe(false);
  });

  it("with two accounts: a required enum of both", () => {
    const field = accountField({ accounts: ["marketing", "sales", "sales"] });
    expect(field.parse("sales")).toBe("sales");
    expect(field.safeParse(undefined).success).toBe(false);
    expect(field.safeParse("other").success).toBe(false);
  });

  it.each(GA_STEPS.map((step) => step.id))("%s puts account first, as a list, in its JSON Schema", (id) => {
    const step = GA_STEPS.find((s) => s.id === id);
    const schema = toJsonSchema(step!.input({ accounts: ["marketing", "sales"] }), "input") as {
      properties: Record<string, { enum?: string[]; description?: string }>;
      required?: string[];
    };
    expect(Object.keys(schema.properties)[0]).toBe("account");
    expect(schema.properties.account).toMatchObject({
      enum: ["marketing", "sales"],
      description: "Connected Google account (label).",
    });
    expect(schema.required).toContain("account");
    const single = toJsonSchema(step!.input({ accounts: ["marketing"] }), "input") as { required?: string[] };
    expect(single.required ?? []).not.toContain("account");
  });

  it("every GA step has the GA scopes, a docs link and the search keywords", () => {
    for (const step of GA_STEPS) {
      expect(step.scopes.every((s) => s.startsWith("https://www.googleapis.com/auth/analytics"))).toBe(true);
      expect(step.docUrl).toMatch(/^https:\/\/developers\.google\.com\/analytics\/devguides\//);
      expect(step.keywords).toEqual(expect.arrayContaining(["analytics", "google analytics", "ga4"]));
    }
  });
});
