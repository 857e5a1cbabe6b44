/**
 * `npm run bench`: every figure is the median of interleaved repeats, printed with its min and max, as a
 * ratio to a floor measured in the same run (raw fetch of the same URL, the SDK's minimal one-tool MCP
 * server, one window per wave of a burst), on sandboxes over loopback: no real service is contacted.
 *   --quick   shorter (fewer calls, smaller bursts, 100,000 leads; the 20 s window is skipped)
 *   --smoke   one tiny repeat of every row (the test suite runs it so the bench cannot rot)
 *   --only=a,b  rows: per-call, cold-start, ga, hostile, window, peer, stream, herd, tokens
 *   --repeats=N
 */
import { cpus } from "node:os";
import { FULL, QUICK, SMOKE } from "./lib/config.js";
import { markdownTable, type Row } from "./lib/stats.js";
import { Upstream } from "./lib/upstream.js";
import { coldStartRow } from "./rows/cold-start.js";
import { gaReportRows } from "./rows/ga-reports.js";
import { hostileInputRow } from "./rows/hostile-input.js";
import { perCallRows } from "./rows/per-call.js";
import { streamRows } from "./rows/stream.js";
import { countTaskTokens, tokenTable } from "./rows/tokens.js";
import { tokenHerd, windowRows } from "./rows/window.js";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
const value = (name: string) => flag(name)?.split("=")[1];
const cfg = { ...(flag("smoke") ? SMOKE : flag("quick") ? QUICK : FULL) };
if (value("repeats")) cfg.repeats = Number(value("repeats"));
const only = new Set(
  (value("only") ?? "per-call,cold-start,ga,hostile,window,stream,herd,tokens").split(","),
);

const machine = `${cpus().length} CPUs (nproc), ${cpus()[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}`;
const log = (line: string) => process.stderr.write(`${line}\n`);
log(`bench ${new Date().toISOString().slice(0, 10)} on ${machine}; ${cfg.repeats} repeats`);

const up = await Upstream.start();
const rows: Row[] = [];
const notes: string[] = [];
const section = async <T>(name: string, work: () => Promise<T>): Promise<T | undefined> => {
  if (!only.has(name)) return undefined;
  const start = performance.now();
  log(`${name}…`);
  const result = await work();
  log(`${name} done in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
};
try {
  rows.push(...((await section("per-call", () => perCallRows(up, cfg))) ?? []));
  const cold = await section("cold-start", () => coldStartRow(cfg));
  if (cold) rows.push(cold);
  rows.push(...((await section("ga", () => gaReportRows(up, cfg))) ?? []));
  const hostile = await section("hostile", () => hostileInputRow(cfg));
  if (hostile) rows.push(hostile);
  const window = await section("window", () => windowRows(up, cfg));
  if (window) {
    rows.push(...window.rows);
    notes.push(...window.peer);
  }
  rows.push(...((await section("stream", () => streamRows(up, cfg))) ?? []));
  const herd = await section("herd", () => tokenHerd(up, flag("smoke") ? 20 : 1_000));
  if (herd) notes.push("", herd);
  const tokens = await section("tokens", () => countTaskTokens());
  if (tokens) notes.push("", tokenTable(tokens));
} finally {
  up.stop();
}

process.stdout.write(
  `${[
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; medians of ${cfg.repeats} interleaved repeats (min–max).`,
    "",
    markdownTable(rows),
    "",
    ...notes,
  ].join("\n")}\n`,
);
const missed = rows.filter((row) => !row.met);
if (missed.length > 0)
  log(`goals not met: ${missed.map((row) => row.name + (row.note ? ` (${row.note})` : "")).join("; ")}`);
