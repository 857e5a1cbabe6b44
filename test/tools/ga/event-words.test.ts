/**
 * GA4's documented events in words (src/tools/ga/event-words.ts, which the console shows; newcomer trial
 * 2026-12-02-s5, finding 5): "Add to cart (add_to_cart)" in a funnel's picker, table, chart and headline; a
 * property's own events as they are; a one-word event only where a sentence names a step.
 */
import { describe, expect, it } from "vitest";
import { eventName, eventWords, withEventWords } from "../../../src/tools/ga/event-words.js";

describe("GA4's events in words", () => {
  it("names a documented event in words with its code, a property's own as it is", () => {
    expect(eventWords("add_to_cart")).toBe("Add to cart (add_to_cart)");
    expect(eventWords("session_start")).toBe("Session start (session_start)");
    expect(eventWords("purchase")).toBe("Purchase (purchase)");
    expect(eventWords("newsletter_signup")).toBe("newsletter_signup");
    // Without the code where it only lengthens a line (the funnel chart's labels: console review s13, finding 3).
    expect(eventName("add_to_cart")).toBe("Add to cart");
    expect(eventName("newsletter_signup")).toBe("newsletter_signup");
  });

  it("puts a funnel's sentence in words, leaving plain English alone", () => {
    expect(
      withEventWords(
        "Closed funnel: of 12,343 active users who did session_start, 310 (2.5 %) reached purchase; the most " +
          "users are lost at add_to_cart → begin_checkout; a purchase made elsewhere",
      ),
    ).toBe(
      "Closed funnel: of 12,343 active users who did Session start (session_start), 310 (2.5 %) reached " +
        "Purchase (purchase); the most users are lost at Add to cart (add_to_cart) → Begin checkout " +
        "(begin_checkout); a purchase made elsewhere",
    );
    expect(withEventWords("who did my_own_event")).toBe("who did my_own_event");
  });
});
