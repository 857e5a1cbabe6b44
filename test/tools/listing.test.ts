import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError } from "../../src/errors.js";
import { listTools } from "../../src/mcp/tools.js";
import { toJsonSchema } from "../../src/schemas/json-schema.js";
import { withAccountLabels } from "../../src/tools/account-schema.js";
import { accountField } from "../../src/tools/ga/account-field.js";
import { listedSteps, readListedSteps, TOOL_SCHEMAS_DIR } from "../../src/tools/listing.js";
import { buildStepListing, staleToolSchemas } from "../../src/tools/listing-build.js";
import { toolsFromZod } from "../helpers/zod-tools.js";

const ROOT = new URL("../../", import.meta.url);
const LABEL_SETS: string[][] = [
  [],
  ["marketing"],
  ["marketing", "sales"],
  ["a", "b", "c"],
  ["same", "same"],
  ['"quoted" \\ label', "é", "\u0000account-1"],
  // Integer-like labels: zod lists them first, in ascending order.
  ["b", "1"],
  ["10", "9", "a", "2"],
  ["__proto__", "enum", "required"],
];

// The tool list is served from the JSON Schemas committed in tool-schemas/ (made at build time); it must
// be, byte for byte, what the steps' zod schemas make at run time.
describe("tool-schemas/, the one committed copy of the steps' JSON Schemas besides manifest.json", () => {
  it("holds a file per step, each what the registry's zod schemas make (else: run npm run manifest)", async () => {
    expect(await staleToolSchemas(TOOL_SCHEMAS_DIR)).toEqual([]);
    expect(JSON.stringify(listedSteps())).toBe(JSON.stringify(buildStepListing()));
  });

  it("ships with the package, next to dist/ (tools/list reads it at run time)", async () => {
    const pkg = JSON.parse(await readFile(new URL("package.json", ROOT), "utf8")) as { files: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(["dist", "tool-schemas"]));
    expect(TOOL_SCHEMAS_DIR.href).toBe(new URL("tool-schemas/", ROOT).href);
  });

  it.each(LABEL_SETS)("tools/list for accounts %j is what zod makes for them", (...accounts: string[]) => {
    const context = { accounts };
    expect(JSON.stringify(listTools(context))).toBe(JSON.stringify(toolsFromZod(context)));
  });

  it.each(LABEL_SETS)(
    "the account variant of a schema without `required` is zod's too (%j)",
    (...accounts) => {
      const fields = z.strictObject({ account: accountField({ accounts: [] }), note: z.string().optional() });
      const withLabels = z.strictObject({ account: accountField({ accounts }), note: z.string().optional() });
      const made = withAccountLabels(toJsonSchema(fields, "input"), accounts);
      expect(JSON.stringify(made)).toBe(JSON.stringify(toJsonSchema(withLabels, "input")));
    },
  );

  it("a schema with no account field is listed as it is, whatever the accounts", () => {
    const schema = toJsonSchema(z.strictObject({ account: z.string().optional() }), "input");
    expect(withAccountLabels(schema, ["a", "b"])).toBe(schema);
  });
});

describe("a stale tool-schemas folder", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("is named file by file with the command that fixes it, and running that command fixes it", {
    timeout: 60_000,
  }, async () => {
    dir = await mkdtemp(join(tmpdir(), "martech-tool-schemas-"));
    const schemas = pathToFileURL(join(dir, "tool-schemas/"));
    await cp(new URL("tool-schemas/", ROOT), schemas, { recursive: true });
    await cp(new URL("README.md", ROOT), pathToFileURL(join(dir, "README.md")));
    await rm(new URL("marketo_api_call.json", schemas));
    const stale = new URL("google_analytics_run_reports.json", schemas);
    await writeFile(stale, (await readFile(stale, "utf8")).replace("sessions", "visits"));
    await writeFile(new URL("hubspot_api_call.json", schemas), "{}\n");

    const problems = await staleToolSchemas(schemas);
    expect(problems).toEqual([
      "tool-schemas/marketo_api_call.json is missing: run npm run manifest.",
      "tool-schemas/google_analytics_run_reports.json is stale (the registry's zod schemas changed): run npm run manifest.",
      "tool-schemas/hubspot_api_call.json belongs to no step: run npm run manifest.",
    ]);
    // The command the lines name, pointed at the copy (its argument is the root to write in).
    await promisify(execFile)("npm", ["run", "--silent", "manifest", "--", dir], { cwd: ROOT });
    expect(await staleToolSchemas(schemas)).toEqual([]);
  });
});

describe("a tool-schemas folder that cannot be read", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("is a configuration error naming the file and the remedy, missing or truncated", async () => {
    dir = await mkdtemp(join(tmpdir(), "martech-tool-schemas-"));
    const schemas = pathToFileURL(join(dir, "tool-schemas/"));
    expect(() => readListedSteps(schemas)).toThrow(ConfigurationError);
    expect(() => readListedSteps(schemas)).toThrow(
      `(${join(dir, "tool-schemas", "index.json")}: ENOENT): this installation of martech-steps is incomplete. Reinstall the package`,
    );
    await cp(new URL("tool-schemas/", ROOT), schemas, { recursive: true });
    expect(readListedSteps(schemas).map((step) => step.name)).toEqual(listedSteps().map((s) => s.name));
    await writeFile(new URL("marketo_api_call.json", schemas), '{"name": "marketo_api');
    expect(() => readListedSteps(schemas)).toThrow(/marketo_api_call\.json: .*JSON.*incomplete/);
  });
});
