/**
 * Find a lead's card (console/src/marketo/lead-card.ts): labels by the connection's display names, plain
 * words where it has none, and Marketo's times as "3 Jan 2025, 14:47 UTC" (trial s5, finding 3).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leadFacts, readableTime } from "../../console/src/marketo/lead-card.js";

describe("the lead card", () => {
  it("reads a Marketo time as day, month, year and UTC time, and leaves other values as they are", () => {
    expect(readableTime("2025-01-03T14:47:53Z")).toBe("3 Jan 2025, 14:47 UTC");
    expect(readableTime("2025-09-27T19:00:00+02:00")).toBe("27 Sep 2025, 17:00 UTC");
    expect(readableTime("Acme")).toBe("Acme");
    expect(readableTime(42)).toBe(42);
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }), (date) => {
        const iso = date.toISOString().replace(/\.\d+Z$/, "Z");
        const read = String(readableTime(iso));
        expect(read).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/);
        expect(Date.parse(read.replace(",", "").replace(" UTC", "Z"))).toBe(
          Math.floor(date.getTime() / 60_000) * 60_000,
        );
      }),
      { seed: 28 },
    );
  });

  it("labels the facts by the display names the connection has, plain words for the rest, in order", () => {
    const lead = {
      id: 7,
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Tanaka",
      company: "Acme",
      leadScore: 0,
      createdAt: "2025-01-03T14:47:53Z",
      updatedAt: "2025-01-04T08:05:00Z",
    };
    const fields = [
      { api: "email", ui: "Email Address" },
      { api: "company", ui: "Company Name" },
    ];
    expect(leadFacts(lead, fields)).toEqual([
      { label: "Name", text: "Ada Tanaka" },
      { label: "Email Address", text: "ada@example.com" },
      { label: "Company Name", text: "Acme" },
      { label: "Lead Score", text: "0" },
      { label: "Created", text: "3 Jan 2025, 14:47 UTC" },
      { label: "Updated", text: "4 Jan 2025, 08:05 UTC" },
    ]);
  });
});
