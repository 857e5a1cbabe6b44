// Per-task figures of a trial's log (agent.mjs's JSON lines): calls, errors and characters read, and the totals.
// `list`, `resources` and `prompts` are reading the catalogue: counted as characters, not as calls on a task.
//   node bench/agent-trials/summarize.mjs <log.jsonl>   (prints a Markdown table)
import { readFileSync } from "node:fs";

const CATALOGUE = new Set(["list", "resources", "prompts"]);
const lines = readFileSync(process.argv[2], "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const tasks = new Map();
for (const line of lines) {
  const t = tasks.get(line.task) ?? { calls: 0, errors: 0, chars: 0, catalogueChars: 0 };
  if (CATALOGUE.has(line.op)) t.catalogueChars += line.chars;
  else {
    t.calls += 1;
    t.chars += line.chars;
    if (line.isError) t.errors += 1;
  }
  tasks.set(line.task, t);
}
const rows = [...tasks].filter(([id]) => id !== "");
console.log("| task | calls | errors | characters read (results) |\n|---|---|---|---|");
const total = { calls: 0, errors: 0, chars: 0 };
for (const [id, t] of rows) {
  console.log(`| ${id} | ${t.calls} | ${t.errors} | ${t.chars.toLocaleString("en-US")} |`);
  total.calls += t.calls;
  total.errors += t.errors;
  total.chars += t.chars;
}
const n = rows.length || 1;
console.log(
  `| **all ${rows.length}** | ${total.calls} (${(total.calls / n).toFixed(2)} a task) | ${total.errors} | ` +
    `${total.chars.toLocaleString("en-US")} (${Math.round(total.chars / n).toLocaleString("en-US")} a task) |`,
);
