/**
 * The pickers' suggestions (console/src/choices.ts): what was typed finds a choice by either of its
 * names, every match and only matches are listed, one heading per group (the list's order is the order
 * the keyboard walks), the exact name first; a typed name (any case) is that choice. Property-based
 * (fast-check, fixed seed): a failure prints the shrunk input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Choice, matching, namedChoice, typedFor } from "../../console/src/choices.js";

const GA: Choice[] = [
  { value: "averageSessionDuration", label: "Average session duration", group: "Session" },
  { value: "sessions", label: "Sessions", group: "Session" },
  { value: "country", label: "Country", group: "Geography" },
  { value: "activeUsers", label: "Active users", group: "User" },
  { value: "sessionsPerUser", label: "Sessions per user", group: "Session" },
];

const choice = fc.record({
  value: fc.stringMatching(/^[a-z][A-Za-z]{0,8}$/),
  label: fc.stringMatching(/^[A-Z][a-z ]{0,10}$/),
  group: fc.constantFrom("Session", "User", "Geography", "Page / Screen"),
});
const contains = (c: Choice, typed: string) =>
  c.label.toLowerCase().includes(typed.trim().toLowerCase()) ||
  c.value.toLowerCase().includes(typed.trim().toLowerCase());

describe("a picker's suggestions", () => {
  it("finds a field by its UI name or its API name, the very name first, and takes a typed name as it", () => {
    expect(matching(GA, "sessions").map((c) => c.value)).toEqual(["sessions", "sessionsPerUser"]);
    expect(matching(GA, "Session dur").map((c) => c.value)).toEqual(["averageSessionDuration"]);
    expect(matching(GA, "activeusers").map((c) => c.value)).toEqual(["activeUsers"]);
    expect(namedChoice(GA, "  country ")?.value).toBe("country");
    expect(namedChoice(GA, "SESSIONS")?.value).toBe("sessions");
    expect(namedChoice(GA, "Sesions")).toBeUndefined();
  });

  it("lists every match and only matches, each group's under one heading, the exact name first in its group", () => {
    fc.assert(
      fc.property(fc.array(choice, { maxLength: 30 }), fc.string({ maxLength: 4 }), (choices, typed) => {
        const found = matching(choices, typed);
        expect(found.length).toBe(choices.filter((c) => contains(c, typed)).length);
        expect(found.every((c) => contains(c, typed))).toBe(true);
        // Groups are contiguous: a group seen once never comes back after another.
        const order = found.map((c) => c.group).filter((g, i, all) => i === 0 || all[i - 1] !== g);
        expect(new Set(order).size).toBe(order.length);
        const exact = namedChoice(found, typed);
        if (exact && typed.trim()) {
          const ofGroup = found.filter((c) => c.group === exact.group);
          const first = ofGroup[0] as Choice;
          const fold = (text: string) => text.trim().toLowerCase();
          expect([fold(first.label), fold(first.value)]).toContain(fold(typed));
        }
      }),
      { seed: 28, numRuns: 300 },
    );
  });
});

describe("what the input shows as choices and value change (typedFor)", () => {
  const fields: Choice[] = [
    { value: "activeUsers", label: "Active users", group: "User" },
    { value: "sessions", label: "Sessions", group: "Session" },
  ];
  it("shows a value drawn before its choices came by its label once they come (CI, stop 35)", () => {
    // A picker drawn again after the pick starts with no choices: the box shows the value itself.
    const before = typedFor([], "activeUsers", "", true);
    expect(before).toBe("activeUsers");
    expect(typedFor(fields, "activeUsers", before, false)).toBe("Active users");
  });
  it("keeps what a person is typing when only the choices change, and a free text as typed", () => {
    expect(typedFor(fields, undefined, "sess", false)).toBe("sess");
    expect(typedFor(fields, "sessions", "sess", false)).toBe("sess");
    expect(typedFor(fields, "Console training", "Console training", false)).toBe("Console training");
  });
  it("shows a value set from outside by its label", () => {
    expect(typedFor(fields, "sessions", "Active users", true)).toBe("Sessions");
    expect(typedFor(fields, undefined, "Active users", true)).toBe("");
  });
});
