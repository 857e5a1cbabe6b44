/**
 * Issue 27 (trial T05, T07, T10, T19): the names offered for one asked for are alike, most alike first, and
 * an unrelated name is not offered at all.
 */
import fc from "fast-check";
import { distance } from "fastest-levenshtein";
import { describe, expect, it } from "vitest";
import { alikeFirst, nameWords } from "../../../src/tools/records/similar-names.js";

/** The sandbox's static lists, smart campaigns and some of its programs (src/sandbox/marketo/seed.ts). */
const LISTS = [
  "Newsletter Subscribers",
  "Webinar Registrants Q3",
  "Trade Show Leads",
  "Customers - Gold",
  "Beta Testers",
  "Re-engagement Targets",
  "Event Speakers",
  "Do Not Call",
  "Partner Referrals",
  "Imported - Unprocessed",
];
const CAMPAIGNS = [
  "Send Welcome Email",
  "Webinar Reminder",
  "Score Web Visits",
  "Lead Nurture Entry",
  "Monthly Newsletter",
  "Quarterly Re-engagement",
  "Data Cleanup",
  "Event Follow-up",
];
const PROGRAMS = [
  "Email Program 01",
  "Default Program 02",
  "Event Program 03",
  "Engagement Program 04",
  "Webinar Program 05",
  "Default Program 07",
  "Webinar Program 10",
];

describe("names alike", () => {
  it("T07: for Q1 Webinar Invitees the list sharing its words comes first, unrelated lists not at all", () => {
    const offered = alikeFirst("Q1 Webinar Invitees", LISTS);
    expect(offered[0]).toBe("Webinar Registrants Q3");
    expect(offered).not.toContain("Beta Testers");
    expect(offered).not.toContain("Event Speakers");
  });

  it("T08 and T19: a name sharing no word and no spelling is offered nothing", () => {
    expect(alikeFirst("Canada Directors - Dec Nurture", LISTS)).toEqual([]);
    expect(alikeFirst("Sales Alert - Hot Lead", CAMPAIGNS)).toEqual([]);
  });

  it("T10: for Product Launch Webinar only webinar programs are offered, no Default Program", () => {
    const offered = alikeFirst("Product Launch Webinar", PROGRAMS);
    expect(offered.length).toBeGreaterThan(0);
    for (const name of offered) expect(name).toMatch(/Webinar/);
  });

  it("T05: for lastName a field sharing a word is offered, npsScore and utmTerm are not", () => {
    const offered = alikeFirst("lastName", ["npsScore", "utmTerm", "email", "id", "firstName", "company"]);
    expect(offered).toEqual(["firstName"]);
  });

  it("words split at camelCase, punctuation and case", () => {
    expect(nameWords("Re-engagement Targets")).toEqual(["re", "engagement", "targets"]);
    expect(nameWords("utmTerm")).toEqual(["utm", "term"]);
  });

  const word = fc.stringMatching(/^[a-z][a-z0-9]{2,8}$/);
  const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
  /** An edit of one letter: replaced, left out or added, at a position. */
  const edit = fc.record({
    kind: fc.constantFrom("replace", "delete", "insert"),
    at: fc.nat(),
    letter: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"),
  });
  const joined = (text: string) => nameWords(text).join("");

  it("a name with small edits (a letter, case, spacing) offers the name it came from first", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.array(edit, { maxLength: 2 }),
        fc.boolean(),
        (names, pick, edits, upper) => {
          const original = names[pick % names.length]!;
          let edited = original;
          for (const { kind, at, letter } of edits) {
            // Letters only, away from the spaces, so the words stay words.
            const letters = [...edited].flatMap((c, i) => (c === " " ? [] : [i]));
            const i = letters[at % letters.length]!;
            edited =
              kind === "replace"
                ? edited.slice(0, i) + letter + edited.slice(i + 1)
                : kind === "delete" && letters.length > 3
                  ? edited.slice(0, i) + edited.slice(i + 1)
                  : edited.slice(0, i) + letter + edited.slice(i);
          }
          edited = upper ? edited.toUpperCase() : edited.replaceAll(" ", "_");
          const own = distance(joined(original), joined(edited));
          // Another name as near in spelling would be an equally good answer: those are left out.
          fc.pre(
            names.every(
              (other) =>
                other === original || distance(joined(other), joined(edited)) > own + 2 * edits.length + 2,
            ),
          );
          // Small: at most one letter in four changed.
          fc.pre(joined(original).length >= 4 * Math.max(1, edits.length));
          expect(alikeFirst(edited, names)[0]).toBe(original);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
