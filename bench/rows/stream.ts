/**
 * Streaming leads through MarketoConnector.pages() against a raw fetch loop over the same pages, each run
 * in a fresh process (its peak RSS is its own): records per second and peak RSS.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BenchConfig } from "../lib/config.js";
import { interleaved, type Row, ratioRow } from "../lib/stats.js";
import type { Upstream } from "../lib/upstream.js";

const run = promisify(execFile);

interface StreamRun {
  ms: number;
  records: number;
  maxRssMb: number;
}

async function streamRun(mode: "raw" | "ours", url: string, total: number): Promise<StreamRun> {
  const { stdout } = await run(
    process.execPath,
    ["bench/stream-client.mjs", mode, url, "stub-id", "stub-secret"],
    {
      maxBuffer: 1024 * 1024,
    },
  );
  const result = JSON.parse(stdout) as StreamRun;
  if (result.records !== total) throw new Error(`${mode} streamed ${result.records} of ${total} leads`);
  return result;
}

export async function streamRows(up: Upstream, cfg: BenchConfig): Promise<Row[]> {
  const stub = await up.leads(cfg.leads);
  const runs: Record<"raw" | "ours", StreamRun[]> = { raw: [], ours: [] };
  const side = (mode: "raw" | "ours") => async () => {
    const result = await streamRun(mode, stub.url, cfg.leads);
    runs[mode].push(result);
    return result.ms;
  };
  const wall = await interleaved(cfg.repeats, side("ours"), side("raw"));
  await up.close(stub.handle);
  const leads = cfg.leads.toLocaleString("en-US");
  const rate = wall.map((p) => ({ ours: (cfg.leads * 1000) / p.ours, floor: (cfg.leads * 1000) / p.floor }));
  const rss = runs.ours.map((o, i) => ({ ours: o.maxRssMb, floor: runs.raw[i]!.maxRssMb }));
  return [
    {
      ...ratioRow(
        {
          name: `streaming ${leads} leads through pages(), records/s`,
          unit: "records/s",
          floorName: "raw fetch loop",
        },
        rate,
        0,
      ),
      // Higher is better here: the ratio is ours / raw, shown as a share of the raw loop's rate.
      goal: "report",
      met: true,
    },
    {
      ...ratioRow(
        {
          name: `streaming ${leads} leads through pages(), peak RSS`,
          unit: "MB",
          floorName: "raw fetch loop",
        },
        rss,
        0,
      ),
      goal: "report (flat memory)",
      met: true,
    },
  ];
}
