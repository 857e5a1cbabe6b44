/**
 * `npm run bench` cannot rot unnoticed: one tiny repeat of every row (--smoke) must print the whole
 * table. Timings are not checked here (the machine may be busy); that every row is there, with a
 * figure, a floor and a ratio, and that the burst drew no refusal, is.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const TSX = join(ROOT, "node_modules", ".bin", "tsx");

const ROWS = [
  /^MarketoConnector\.request, p50$/,
  /^runToolStep, credentials in the environment, p50$/,
  /^runToolStep, credentials saved by `marketo configure`, p50$/,
  /^MCP tools\/call in memory, p50$/,
  /^stdio cold start to the first tools\/list answer$/,
  /^\d+ concurrent Run Reports on one property, wall \(quiet\)$/,
  /^\d+ concurrent Run Reports on one property, wall \(every core busy/,
  /^[\d.]+ MB of unknown keys refused by runToolStep$/,
  /^steady share of the window, time per wave of a burst \(\d+ calls, 100 per [\d.]+ s; whole burst [\d.]+ s; 606\/615 received: 0; failed: 0\)$/,
  /^streaming [\d,]+ leads through pages\(\), records\/s$/,
  /^streaming [\d,]+ leads through pages\(\), peak RSS$/,
];

describe("npm run bench --smoke", () => {
  it("prints every row of the table, each with a figure, its floor and a ratio", async () => {
    const result = await run(
      ["bench/run.ts", "--smoke"],
      { HOME: process.env.HOME },
      {
        command: [TSX],
        timeoutMs: 150_000,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| what") && !line.startsWith("|---"))
      .map((line) => line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, "")))
      // The timing table's six columns; the token table (four) is test/bench/tokens.test.ts's.
      .filter((cells) => cells.length === 6);
    for (const pattern of ROWS)
      expect(
        rows.map((r) => r[0]),
        String(pattern),
      ).toContainEqual(expect.stringMatching(pattern));
    expect(rows).toHaveLength(ROWS.length);
    for (const [name, ours, floor, ratio, goal, met] of rows) {
      expect(ours, name).toMatch(/^[\d.]+ \([\d.]+–[\d.]+\) \S+/);
      expect(floor, name).toMatch(/: [\d.]+ \([\d.]+–[\d.]+\) \S+/);
      expect(ratio, name).toMatch(/^[\d.]+ \([\d.]+–[\d.]+\) ?(×|%)$/);
      expect(goal, name).toMatch(/^(≤|≥|report)/);
      expect(met, name).toMatch(/^(yes|\*\*no\*\*)$/);
    }
    expect(result.stdout).toMatch(
      /concurrent cold calls: identity requests sent: martech-steps 1, node-marketo-rest 0\.7\.8 \d+\./,
    );
  }, 180_000);
});
