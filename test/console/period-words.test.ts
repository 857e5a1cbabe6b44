/**
 * A report's periods in a person's words (issue 28, trial 2026-12-02-s7, finding 10): the columns and the
 * comparison said "Sessions (last7days)" and "in last7days"; they say the preset's words and its dates.
 */
import { describe, expect, it } from "vitest";
import { comparisonHeadline } from "../../console/src/comparison-words.js";
import { columnTitle } from "../../console/src/report-columns.js";
import { periodWords, rangeLabels } from "../../src/tools/ga/period-words.js";

const WEEK_MONTH = [
  { name: "last7days", start_date: "2026-11-25", end_date: "2026-12-01" },
  { name: "last28days", start_date: "2026-11-04", end_date: "2026-12-01" },
];
const plain = (text: string) => text.replace(/[\u2009\u202f]/g, " ");

describe("periodWords", () => {
  it("names a preset's period by its words and dates, in a heading and in a sentence", () => {
    expect(plain(periodWords(WEEK_MONTH)("last7days"))).toBe("Last 7 days (25 Nov – 1 Dec 2026)");
    expect(plain(periodWords(WEEK_MONTH, true)("last28days"))).toBe("the last 28 days (4 Nov – 1 Dec 2026)");
    const month = [{ name: "lastMonth", start_date: "2026-11-01", end_date: "2026-11-30" }];
    expect(plain(periodWords(month, true)("lastMonth"))).toBe("last month (1 – 30 Nov 2026)");
    const day = [{ name: "yesterday", start_date: "2026-12-01", end_date: "2026-12-01" }];
    expect(periodWords(day)("yesterday")).toBe("Yesterday (1 Dec 2026)");
  });

  it("keeps a person's name for a period beside its dates, and words the dates of an unnamed one", () => {
    const ranges = [
      { name: "Black Friday", start_date: "2026-11-27", end_date: "2026-11-27" },
      { start_date: "2026-11-20", end_date: "2026-11-26" },
    ];
    const [, unnamed] = rangeLabels(ranges);
    expect(unnamed).toBe("2026-11-20…2026-11-26");
    expect(periodWords(ranges)("Black Friday")).toBe("Black Friday (27 Nov 2026)");
    expect(periodWords(ranges, true, false)("Black Friday")).toBe("Black Friday");
    expect(plain(periodWords(ranges)(unnamed as string))).toBe("20 – 26 Nov 2026");
    expect(periodWords(undefined)("last7days")).toBe("last7days");
  });
});

describe("a report's period in its columns and headline", () => {
  it("titles a merged period's column with the period's words", () => {
    const title = columnTitle(
      "sessions[last7days]",
      { sessions: "Sessions" },
      undefined,
      periodWords(WEEK_MONTH),
    );
    expect(plain(title)).toBe("Sessions, Last 7 days (25 Nov – 1 Dec 2026)");
    expect(columnTitle("sessions[Black Friday]", { sessions: "Sessions" })).toBe("Sessions (Black Friday)");
    // Money says its currency beside the period's words (the two branches were merged together).
    const usd = (metric: string) => (metric === "purchaseRevenue" ? "USD" : undefined);
    const money = columnTitle(
      "purchaseRevenue[last7days]",
      { purchaseRevenue: "Purchase revenue" },
      usd,
      periodWords(WEEK_MONTH),
    );
    expect(plain(money)).toBe("Purchase revenue (USD), Last 7 days (25 Nov – 1 Dec 2026)");
  });

  it("says the periods' words in the comparison's headline, not the preset's API name", () => {
    const report = {
      rows: [{ sessions_change: 1 }],
      date_ranges: WEEK_MONTH,
      comparison: { from: "last28days", to: "last7days" },
      request: { metrics: [{ name: "sessions" }] },
    };
    const row = { "sessions[last28days]": 400, "sessions[last7days]": 120 };
    const text = plain(
      comparisonHeadline(
        { ...report, rows: [row] },
        (c) => c,
        (_c, v) => v,
      ),
    );
    expect(text).toMatch(
      /^sessions went from 400 in the last 28 days \(4 Nov – 1 Dec 2026\) to 120 in the last 7 days \(25 Nov – 1 Dec 2026\)\. The last 28 days has 28 days/,
    );
    expect(text).not.toMatch(/last\d+days/);
  });
});
