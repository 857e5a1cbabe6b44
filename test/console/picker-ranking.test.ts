/**
 * The order of a picker's suggestions (console/src/choices.ts, `matchRank`; trial s9, finding 10: "users"
 * listed 1-day, 28-day and 7-day active users before Total users, "revenue" four lookalikes before Purchase
 * revenue): the very name, then names starting with the text, then whole-word matches with the fewest
 * other words, then matches inside a word. The two examples on the sandbox's GA4 catalog as the page
 * groups it; the rule as an invariant, property-based (fast-check, fixed seed).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Choice, matching, matchRank } from "../../console/src/choices.js";
import { METRICS } from "../../src/sandbox/google/data/schema-catalog.js";

const CATALOG: Choice[] = METRICS.map((metric) => ({
  value: metric.apiName,
  label: metric.uiName,
  group: metric.category,
}));
/** Every one of `first` is listed, and before `then`. */
const listedBefore = (typed: string, first: string[], then: string) => {
  const labels = matching(CATALOG, typed).map((choice) => choice.label);
  expect(labels).toEqual(expect.arrayContaining([...first, then]));
  expect(Math.max(...first.map((label) => labels.indexOf(label)))).toBeLessThan(labels.indexOf(then));
};

describe("a picker's suggestions, in order", () => {
  it("put the plain name before its lookalikes: users and revenue", () => {
    listedBefore("users", ["Total users", "Active users"], "1-day active users");
    listedBefore("users", ["Total users", "Active users"], "28-day active users");
    listedBefore("revenue", ["Purchase revenue", "Total revenue"], "Gross item revenue");
    listedBefore("revenue", ["Purchase revenue", "Total revenue"], "Average purchase revenue");
    listedBefore("revenue", ["Purchase revenue", "Total revenue"], "Total ad revenue");
  });

  // Labels of a few words from a small vocabulary, so that whole-word, part-word and exact matches all occur.
  const word = fc.constantFrom(
    "users",
    "user",
    "active",
    "total",
    "new",
    "revenue",
    "item",
    "1-day",
    "sessions",
  );
  const choice = fc.record({
    value: fc.stringMatching(/^[a-z][A-Za-z]{0,8}$/),
    label: fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" ")),
    group: fc.constantFrom("User", "Revenue", "Ecommerce", "Session"),
  });
  const typed = fc.oneof(word, fc.constantFrom("active users", "use", "venue", "total revenue", ""));

  it("never list a choice before a better-ranked one of its group, nor a group before a better one", () => {
    fc.assert(
      fc.property(fc.array(choice, { maxLength: 25 }), typed, (choices, text) => {
        const found = matching(choices, text);
        const rank = (one: Choice) => matchRank(one, text);
        found.forEach((one, i) => {
          const next = found[i + 1];
          if (next && next.group === one.group) expect(rank(one)).toBeLessThanOrEqual(rank(next));
        });
        // Each group's best rank never improves further down the list.
        const bests = [...new Set(found.map((one) => one.group))].map((group) =>
          Math.min(...found.filter((one) => one.group === group).map(rank)),
        );
        bests.forEach((best, i) => {
          if (i > 0) expect(best).toBeGreaterThanOrEqual(bests[i - 1] ?? 0);
        });
      }),
      { seed: 10, numRuns: 300 },
    );
  });

  it("rank by the rule: the very name, a start, whole words with fewer others first, inside a word last", () => {
    fc.assert(
      fc.property(choice, typed, (one, text) => {
        const wanted = text.trim().toLowerCase();
        fc.pre(wanted !== "" && (one.label.includes(wanted) || one.value.toLowerCase().includes(wanted)));
        const rank = matchRank(one, text);
        const label = one.label.toLowerCase();
        if (label === wanted || one.value.toLowerCase() === wanted) expect(rank).toBe(0);
        else if (label.startsWith(wanted) || one.value.toLowerCase().startsWith(wanted)) expect(rank).toBe(1);
        else if (` ${label.replace(/-/g, " ")} `.includes(` ${wanted.replace(/-/g, " ")} `))
          // Whole words: 2 plus the label's other words.
          expect(rank).toBe(
            2 + (label.match(/[a-z0-9]+/g) ?? []).length - (wanted.match(/[a-z0-9]+/g) ?? []).length,
          );
        else expect(rank).toBeGreaterThan(2 + (label.match(/[a-z0-9]+/g) ?? []).length);
      }),
      { seed: 10, numRuns: 500 },
    );
  });
});
