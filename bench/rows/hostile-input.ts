/**
 * A hostile input does not hold the event loop: 2 MB of short unknown keys (half the HTTP body limit)
 * refused by runToolStep, against the floor of reading the same body at all (JSON.parse of its text),
 * which any server pays before it can refuse anything. Before strict inputs were bounded, describing
 * every unknown key took about 6 s here (test/tools/input/hostile-inputs.test.ts checks the answer's
 * size; this row checks its cost).
 */
import { ValidationError } from "../../src/errors.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/types.js";
import type { BenchConfig } from "../lib/config.js";
import { interleaved, type Row, ratioRow } from "../lib/stats.js";

const KEYS = 170_000;

/** Nothing is sent for a refused input: no connection is ever asked of this context. */
const context = {} as ToolContext;

const wall = async (work: () => unknown): Promise<number> => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

export async function hostileInputRow(cfg: BenchConfig): Promise<Row> {
  const input: Record<string, unknown> = { method: "GET", endpoint: "/rest/v1/lists.json" };
  for (let i = 0; i < KEYS; i += 1) input[`k${i}`] = 1;
  const text = JSON.stringify(input);
  const refuse = async () => {
    const refused = await runToolStep("marketo_api_call", JSON.parse(text), context).then(
      () => false,
      (error: unknown) => error instanceof ValidationError && error.message.includes("k0"),
    );
    if (!refused) throw new Error("the hostile input was not refused naming its unknown fields");
  };
  const parseOnly = () => JSON.parse(text);
  const ours = () => wall(refuse);
  const floor = () => wall(parseOnly);
  await ours();
  await floor();
  return ratioRow(
    {
      name: `${(text.length / 1e6).toFixed(1)} MB of unknown keys refused by runToolStep`,
      unit: "ms",
      floorName: "JSON.parse of the same body",
    },
    await interleaved(cfg.repeats, ours, floor),
    4,
  );
}
