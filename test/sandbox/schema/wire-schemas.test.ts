/**
 * The validator itself: what it refuses and what it lets through, on hand-made answers, so that a change
 * that loosens it (an open object, a lost `required`) fails here and not only in a review.
 */
import { describe, expect, it } from "vitest";
import { expectWireShape } from "../../helpers/wire/schemas.js";

const STATUS = "GET /bulk/v1/leads/export/{exportId}/status.json";
const job = { exportId: "ce45a7a1-f19d-4ce2-882c-a3c795940a7d", format: "CSV", status: "Created" };
const KEY_EVENT = "GET /v1beta/properties/{propertiesId}/keyEvents/{keyEventsId}";
const keyEvent = {
  name: "properties/1/keyEvents/2",
  eventName: "purchase",
  countingMethod: "ONCE_PER_EVENT",
};

describe("Marketo definitions are closed", () => {
  it("refuses an invented member, and takes a lead's own fields", () => {
    expectWireShape("marketo-mapi", STATUS, { requestId: "a#1", success: true, result: [job] });
    expect(() =>
      expectWireShape("marketo-mapi", STATUS, {
        requestId: "a#1",
        success: true,
        result: [{ ...job, size: 1 }],
      }),
    ).toThrow();
    const lead = { id: 1, email: "a@example.com", score: 3, unsubscribed: false, title: null };
    expectWireShape("marketo-mapi", "GET /rest/v1/lead/{leadId}.json", {
      requestId: "a#1",
      success: true,
      result: [lead],
    });
    expect(() =>
      expectWireShape("marketo-mapi", "GET /rest/v1/lead/{leadId}.json", {
        requestId: "a#1",
        success: true,
        result: [{ ...lead, nested: { a: 1 } }],
      }),
    ).toThrow();
  });

  it("requires the Asset envelope, and `result` unless nothing matched", () => {
    const op = "GET /rest/asset/v1/staticList/byName.json";
    const envelope = { success: true, errors: [], warnings: [], requestId: "a#1" };
    expectWireShape("marketo-asset", op, {
      ...envelope,
      warnings: ["No assets found for the given search criteria."],
    });
    expect(() => expectWireShape("marketo-asset", op, envelope)).toThrow();
    expect(() =>
      expectWireShape("marketo-asset", op, { success: true, requestId: "a#1", result: [] }),
    ).toThrow();
  });
});

describe("discovery field behaviours become required fields", () => {
  it("requires a REQUIRED string or enum and the resource name", () => {
    expectWireShape("ga4-admin", KEY_EVENT, keyEvent);
    for (const missing of ["name", "countingMethod"]) {
      const { [missing]: _, ...rest } = keyEvent as Record<string, string>;
      expect(() => expectWireShape("ga4-admin", KEY_EVENT, rest), missing).toThrow();
    }
  });

  it("lets a REQUIRED number be left out, as proto3 JSON leaves out a zero", () => {
    expectWireShape("ga4-admin", KEY_EVENT, { ...keyEvent, defaultValue: { currencyCode: "USD" } });
    expect(() =>
      expectWireShape("ga4-admin", KEY_EVENT, { ...keyEvent, defaultValue: { numericValue: 0 } }),
    ).toThrow();
  });
});
