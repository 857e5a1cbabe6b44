/**
 * A step's progress in a marketer's words (issue 28 review: "records read" is an agent's word). The
 * Marketo read's "Page 3, 600 records read, 12 match" (src/tools/marketo/read-calls.ts, compute-read.ts)
 * shows as "600 found so far, 12 match"; an export run's "Export 2 of 3 read: 5,000 rows so far, 1 empty
 * window" (src/tools/marketo/export-run.ts) as "Part 2 of 3 done: 5,000 rows so far". Other progress
 * messages are already in a person's words and pass as they are. MCP and the CLI keep the step's words.
 */
export function progressForPeople(message: string): string {
  return message
    .replace(/\bPage [\d,]+, ([\d,]+) records? read\b/g, "$1 found so far")
    .replace(/\bExport ([\d,]+) of ([\d,]+) read:/g, "Part $1 of $2 done:")
    .replace(/, [\d,]+ empty windows?\b/g, "");
}
