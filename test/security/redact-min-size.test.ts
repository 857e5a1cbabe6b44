import { describe, expect, it } from "vitest";
import { REDACTED, Redactor } from "../../src/redact.js";

describe("the redactor's shortest window follows the secrets it knows", () => {
  it("a short secret added after a long one is still found in a text as short as it", () => {
    const redactor = new Redactor({ feeds: null }).add("a-long-client-secret-0123456789");
    expect(redactor.text("short1")).toBe("short1");
    redactor.add("pw123456");
    expect(redactor.text("pw123456")).toBe(REDACTED);
    expect(redactor.json('{"k":"pw123456"}')).toEqual({ k: REDACTED });
  });

  it("when the short secret is forgotten (capacity), short texts are passed over again, long secrets still found", () => {
    const redactor = new Redactor({ capacity: 1, feeds: null }).add("pw123456");
    redactor.add("a-long-client-secret-0123456789");
    expect(redactor.text("pw123456")).toBe("pw123456");
    expect(redactor.text("x a-long-client-secret-0123456789 y")).toBe(`x ${REDACTED} y`);
  });
});
