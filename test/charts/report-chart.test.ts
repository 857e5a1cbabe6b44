import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { funnelLabelRoom } from "../../src/charts/funnel.js";
import { chartHeight, chartOption, isChartModel } from "../../src/charts/model.js";
import { renderChartPng, renderChartSvg } from "../../src/charts/render-png.js";
import type { RunReportsOutput } from "../../src/schemas/google-analytics.js";
import { funnelChart, reportChart } from "../../src/tools/ga/report-chart.js";

function report(dimensions: string[], metrics: string[], rows: RunReportsOutput["rows"]): RunReportsOutput {
  return {
    property: "properties/412345671",
    rows,
    row_count: rows.length,
    totals: [],
    request: { dimensions: dimensions.map((name) => ({ name })), metrics: metrics.map((name) => ({ name })) },
    hints: [],
  };
}

const BY_DATE = report(
  ["date"],
  ["sessions", "activeUsers"],
  [
    { date: "20250103", sessions: 30, activeUsers: 20 },
    { date: "20250101", sessions: 10, activeUsers: 8 },
    { date: "20250102", sessions: 20, activeUsers: 15 },
  ],
);

/** Decodes a PNG far enough to know it is whole: signature, IHDR, and IDAT inflating to every scanline. */
function decodePng(png: Buffer): { width: number; height: number; pixels: Buffer; channels: number } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (;;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("ascii", offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8); // bit depth
      channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[data[9] as 0 | 2 | 4 | 6];
    }
    if (type === "IDAT") idat.push(data);
    offset += 12 + length;
    if (type === "IEND") break;
  }
  const pixels = inflateSync(Buffer.concat(idat));
  expect(pixels.length).toBe(height * (1 + width * channels));
  return { width, height, pixels, channels };
}

describe("the report chart (one definition for the browser and the PNG)", () => {
  it("draws a line over time, in date order, when date is a dimension", () => {
    const chart = reportChart(BY_DATE);
    expect(chart.kind).toBe("line");
    const option = chartOption(chart) as {
      xAxis: { data: string[] };
      series: { type: string; name: string; data: number[] }[];
    };
    expect(option.xAxis.data).toEqual(["2025-01-01", "2025-01-02", "2025-01-03"]);
    expect(option.series.map((s) => [s.type, s.name, s.data])).toEqual([
      ["line", "sessions", [10, 20, 30]],
      ["line", "activeUsers", [8, 15, 20]],
    ]);
    // JSON values only: the browser receives it as JSON and draws the same chart.
    expect(JSON.parse(JSON.stringify(chart))).toEqual(chart);
  });

  it("draws a metric asked for as its mean a day as that mean, not the period's figure (review s24, finding 5)", () => {
    const rows = [
      { dayOfWeekName: "Saturday", sessions: 2000, "sessions/day": 400 },
      { dayOfWeekName: "Monday", sessions: 1800, "sessions/day": 450 },
    ];
    const chart = reportChart(report(["dayOfWeekName"], ["sessions"], rows));
    // Bars, largest first.
    expect(chart.series.map((series) => [series.name, series.data])).toEqual([["sessions/day", [450, 400]]]);
  });

  it("draws one line per value of the other dimension for the first metric", () => {
    const chart = reportChart(
      report(
        ["dateHour", "country"],
        ["sessions"],
        [
          { dateHour: "2025010100", country: "France", sessions: 2 },
          { dateHour: "2025010101", country: "France", sessions: 3 },
          { dateHour: "2025010100", country: "Japan", sessions: 9 },
        ],
      ),
    );
    const option = chartOption(chart) as {
      xAxis: { data: string[] };
      series: { name: string; data: number[] }[];
    };
    expect(option.xAxis.data).toEqual(["2025-01-01 00h", "2025-01-01 01h"]);
    expect(option.series.map((s) => [s.name, s.data])).toEqual([
      ["Japan", [9, 0]],
      ["France", [2, 3]],
    ]);
  });

  it("pairs one line per date range day by day, not their sum, when GA added the dateRange dimension", () => {
    const chart = reportChart(
      report(
        ["date"],
        ["sessions"],
        [
          { date: "20250108", dateRange: "date_range_0", sessions: 3 },
          { date: "20250101", dateRange: "date_range_1", sessions: 5 },
          { date: "20250102", dateRange: "date_range_1", sessions: 7 },
          { date: "20250109", dateRange: "date_range_0", sessions: 4 },
        ],
      ),
    );
    expect(chart.kind).toBe("line");
    // The legend names the periods: the title does not repeat them.
    expect(chart.title).toBe("sessions by date");
    expect(chart.categories).toEqual(["2025-01-08", "2025-01-09"]);
    expect(chart.series).toEqual([
      { name: "sessions, date_range_0", data: [3, 4] },
      { name: "sessions, date_range_1", data: [5, 7] },
    ]);
    // Unnamed ranges read as the dates the answer states for them, in words.
    const stated = reportChart({
      ...report(["date"], ["sessions"], [{ date: "20250108", dateRange: "date_range_0", sessions: 3 }]),
      date_ranges: [{ start_date: "2025-01-08", end_date: "2025-01-14" }],
    });
    expect(stated.series[0]?.name).toBe("sessions, 8\u2009–\u200914 Jan 2025");
    // A preset's period reads in words (trial s7, finding 10: "last7days vs last28days").
    const presets = reportChart(
      report(
        ["date"],
        ["sessions"],
        [
          { date: "20250108", dateRange: "last7days", sessions: 3 },
          { date: "20250108", dateRange: "last28days", sessions: 5 },
        ],
      ),
    );
    expect(presets.series.map((series) => series.name)).toEqual([
      "sessions, Last 28 days",
      "sessions, Last 7 days",
    ]);
  });

  it("draws a comparison as grouped bars: one category per combination, one bar per range in it", () => {
    const channels = ["Organic Search", "Direct", "Paid Search", "Email", "Referral", "Organic Social"];
    const rows = channels.flatMap((channel, i) => [
      { sessionDefaultChannelGroup: channel, dateRange: "last 28 days", sessions: 100 - i * 10 },
      { sessionDefaultChannelGroup: channel, dateRange: "the 28 days before", sessions: 50 + i },
    ]);
    const output = {
      ...report(["sessionDefaultChannelGroup"], ["sessions"], rows),
      property_name: "Retail Web Store",
      request: {
        dimensions: [{ name: "sessionDefaultChannelGroup" }],
        metrics: [{ name: "sessions" }],
        dateRanges: [{ name: "last 28 days" }, { name: "the 28 days before" }],
      },
    };
    const chart = reportChart(output, {
      sessions: "Sessions",
      sessionDefaultChannelGroup: "Session default channel group",
    });
    expect(chart.kind).toBe("bar");
    expect(chart.categories).toEqual(channels);
    expect(chart.series.map((series) => series.name)).toEqual(["last 28 days", "the 28 days before"]);
    expect(chart.series[1]?.data).toEqual([50, 51, 52, 53, 54, 55]);
    expect(chart.title).toBe("Sessions by Session default channel group");
    expect(chart.subtitle).toBe("Retail Web Store");
  });

  it("names each period in the legend with the dates the answer states, whatever its label (trial s8, finding 3)", () => {
    // The example's labels left on two weeks a person typed: the legend says the weeks' dates.
    const rows = ["Direct", "Email"].flatMap((channel) => [
      { sessionDefaultChannelGroup: channel, dateRange: "last 28 days", sessions: 10 },
      { sessionDefaultChannelGroup: channel, dateRange: "the 28 days before", sessions: 5 },
    ]);
    const output = {
      ...report(["sessionDefaultChannelGroup"], ["sessions"], rows),
      request: {
        dimensions: [{ name: "sessionDefaultChannelGroup" }],
        metrics: [{ name: "sessions" }],
        dateRanges: [{ name: "last 28 days" }, { name: "the 28 days before" }],
      },
      date_ranges: [
        { start_date: "2026-11-25", end_date: "2026-12-01", name: "last 28 days" },
        { start_date: "2026-11-18", end_date: "2026-11-24", name: "the 28 days before" },
      ],
    };
    const legend = reportChart(output).series.map((series) => series.name.replace(/\u2009/g, " "));
    expect(legend).toEqual(["last 28 days (25 Nov – 1 Dec 2026)", "the 28 days before (18 – 24 Nov 2026)"]);
    // Several metrics: each bar's metric, then its period.
    const two = reportChart({
      ...output,
      rows: rows.map((row) => ({ ...row, activeUsers: 1 })),
      request: { ...output.request, metrics: [{ name: "sessions" }, { name: "activeUsers" }] },
    });
    expect(two.series[0]?.name.replace(/\u2009/g, " ")).toBe("sessions, last 28 days (25 Nov – 1 Dec 2026)");
  });

  it("says in its subtitle which rows it draws when they are a page of the report, or the largest of them", () => {
    expect(reportChart(BY_DATE, {}, { first: 0, of: 3 }).subtitle).toBe("properties/412345671");
    expect(reportChart(BY_DATE, {}, { first: 100, of: 1234 }).subtitle).toBe(
      "properties/412345671 · rows 101–103 of 1,234",
    );
    const countries = Array.from({ length: 25 }, (_, i) => ({ country: `C${i}`, sessions: i }));
    const bars = reportChart(report(["country"], ["sessions"], countries), {}, { first: 0, of: 25 });
    expect(bars.categories).toHaveLength(20);
    expect(bars.subtitle).toBe("properties/412345671 · the 20 largest of 25 rows");
    const lines = reportChart(
      report(
        ["date", "country"],
        ["sessions"],
        countries.map((row) => ({ ...row, date: "20250101" })),
      ),
    );
    expect(lines.series).toHaveLength(8);
    expect(lines.subtitle).toBe("properties/412345671 · the 8 largest of 25 lines");
  });

  it("draws bars, largest first, lying down (categories along the vertical axis), when no dimension is a time", () => {
    const chart = reportChart(
      report(
        ["country"],
        ["sessions"],
        [
          { country: "France", sessions: 5 },
          { country: "Japan", sessions: 9 },
        ],
      ),
    );
    expect(chart.kind).toBe("bar");
    expect(chart.title).toBe("sessions by country");
    expect(chart.subtitle).toBe("properties/412345671");
    expect(chart.categories).toEqual(["Japan", "France"]);
    const option = chartOption(chart) as { yAxis: { data: string[]; inverse: boolean } };
    expect(option.yAxis.data).toEqual(["Japan", "France"]);
    expect(option.yAxis.inverse).toBe(true);
  });

  it("draws a funnel report's steps in order, the breakdown's total only", () => {
    const output = {
      ...report(
        [],
        [],
        [
          { step_number: 1, step: "session_start", deviceCategory: "(all)", users: 100 },
          { step_number: 1, step: "session_start", deviceCategory: "mobile", users: 60 },
          { step_number: 2, step: "purchase", deviceCategory: "(all)", users: 7 },
          { step: "purchase", next_eventName: "page_view", users: 3 },
        ],
      ),
    };
    const chart = funnelChart(output, "deviceCategory");
    expect(chart.kind).toBe("funnel");
    // The MCP App view draws what the result's _meta carries only when it is a chart it knows.
    expect(isChartModel(JSON.parse(JSON.stringify(chart)))).toBe(true);
    expect(chart.categories).toEqual(["1. session_start", "2. purchase"]);
    expect(chart.series).toEqual([{ name: "Users", data: [100, 7] }]);
    const option = chartOption(chart) as { series: { type: string; sort: string; data: unknown[] }[] };
    expect(option.series[0]?.type).toBe("funnel");
    expect(option.series[0]?.sort).toBe("none");
    expect(option.series[0]?.data).toEqual([
      { name: "1. session_start", value: 100, label: { formatter: "1. session_start\n100" } },
      { name: "2. purchase", value: 7, label: { formatter: "2. purchase\n7" } },
    ]);
  });

  it("labels a funnel's steps with counts as the table writes them, wrapped beside the funnel", () => {
    const chart = funnelChart(
      report(
        [],
        [],
        [
          { step_number: 1, step: "session_start", users: 11519 },
          { step_number: 2, step: "purchase", users: 368 },
        ],
      ),
      undefined,
    );
    type Funnel = {
      left: number;
      width: number;
      label: { width: number; overflow: string };
      data: { label: { formatter: string } }[];
    };
    for (const width of [346, 1200]) {
      const [series] = (chartOption(chart, width) as { series: Funnel[] }).series;
      // The count with the reader's separators ("11,519" in en-US), on a line of its own.
      expect(series?.data[0]?.label.formatter).toBe(`1. session_start\n${(11519).toLocaleString()}`);
      // The labels wrap at the room between the funnel and the chart's right edge.
      expect(series?.label.overflow).toBe("break");
      expect(series?.label.width).toBe(funnelLabelRoom(width));
      expect((series?.left ?? 0) + (series?.width ?? 0) + 25 + funnelLabelRoom(width)).toBeLessThanOrEqual(
        width,
      );
    }
  });

  it("wraps a long title at the chart's width and starts the plot below it", () => {
    const chart = { ...reportChart(BY_DATE), title: "x".repeat(120) };
    const narrow = chartOption(chart, 400) as {
      title: { textStyle: { width: number } };
      grid: { top: number };
    };
    const wide = chartOption(chart, 1600) as { grid: { top: number } };
    expect(narrow.title.textStyle.width).toBe(368);
    expect(narrow.grid.top).toBeGreaterThan(wide.grid.top);
  });

  it("gives bars a row each: the chart grows with its categories", () => {
    const many = report(
      ["country"],
      ["sessions"],
      Array.from({ length: 20 }, (_, i) => ({ country: `Country ${i}`, sessions: i })),
    );
    expect(chartHeight(reportChart(many))).toBeGreaterThan(chartHeight(reportChart(BY_DATE)));
  });

  it("renders a funnel to SVG on the server", async () => {
    const svg = await renderChartSvg(
      funnelChart(report([], [], [{ step_number: 1, step: "first_visit", users: 9 }]), undefined),
    );
    expect(svg).toContain("first_visit");
  });

  it("renders to SVG on the server with the title and axis labels", async () => {
    const svg = await renderChartSvg(reportChart(BY_DATE));
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain("sessions, activeUsers by date");
    expect(svg).toContain("2025-01-02");
  });

  it("renderChartPng gives a PNG that decodes to the requested size and is not blank", async () => {
    const png = await renderChartPng(reportChart(BY_DATE), { width: 640, height: 320 });
    const { width, height, pixels, channels } = decodePng(png);
    expect([width, height]).toEqual([640, 320]);
    // Count scanline bytes that differ from the white background: lines, axes and text.
    let inked = 0;
    for (let y = 0; y < height; y += 1) {
      const start = y * (1 + width * channels) + 1;
      for (let x = 0; x < width * channels; x += 1) if (pixels[start + x] !== 255) inked += 1;
    }
    expect(inked).toBeGreaterThan(1000);
  });

  it("still renders a PNG for a report with no rows", async () => {
    const empty = report(["date"], ["sessions"], []);
    expect(reportChart(empty).title).toBe("No rows");
    const { width } = decodePng(await renderChartPng(reportChart(empty)));
    expect(width).toBe(800);
  });
});
