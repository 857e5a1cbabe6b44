import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuild, runCli } from "../helpers/fake-services/drivers.js";
import { echoedCanaries, type Harness, leaksIn, startHarness } from "../helpers/fake-services/harness.js";
import {
  CONFIGURE_FAILURES,
  GOOGLE_SCENARIOS,
  IMPORT_FAILURES,
  MARKETO_SCENARIOS,
} from "../helpers/fake-services/scenarios.js";

/**
 * The CLI renders every failure the same way (`error: <message>` on stderr, the result as JSON on
 * stdout), and each call is a process of its own (about a second to start), so it runs one scenario per
 * kind of answer; the MCP and plugin suites run them all.
 */
const CLI_SCENARIOS = new Set([
  "identity 401 invalid_client echoing the form",
  "identity 401 with the echo in the error code",
  "API HTTP 403 JSON echo",
  "envelope 601 echoing the token",
  "envelope 603 echoing the token",
  "envelope 606 echoing the token",
  "record-level 1003 echoing the token",
  "success body echoing the token in result, warnings, extra fields and keys",
  "200 that is no envelope, echo in the body and the content type",
  "GA 403 echo",
  "GA success body echoing the token",
  "401, then invalid_client echoing the refresh form",
]);

/** The CLI as people run it: `marketo configure`, `accounts import` and `call`, trace logging on. */
describe("canaries through the CLI", () => {
  let harness: Harness;
  beforeAll(async () => {
    requireBuild();
    harness = await startHarness();
  });
  afterAll(async () => harness.close());

  it("no canary on stdout or stderr of configure, import or any failing call", {
    timeout: 120_000,
  }, async () => {
    const outputs: string[] = [];
    const { MARKETO_CLIENT_ID, MARKETO_CLIENT_SECRET, MARKETO_REST_ENDPOINT, ...storeOnly } = harness.env;
    const configure = async () => {
      const run = await runCli(
        [
          "marketo",
          "configure",
          "--client-id",
          MARKETO_CLIENT_ID ?? "",
          "--endpoint",
          MARKETO_REST_ENDPOINT ?? "",
        ],
        storeOnly,
        `${MARKETO_CLIENT_SECRET}\n`,
      );
      outputs.push(run.stdout, run.stderr);
      return run;
    };
    for (const failure of CONFIGURE_FAILURES) {
      harness.use({ marketo: [failure.handler] });
      expect((await configure()).code).toBe(1);
    }
    harness.use({});
    expect((await configure()).code).toBe(0);

    const file = await harness.refreshTokenFile();
    const importAccount = () =>
      runCli(["accounts", "import", "--label", "main", "--refresh-token-file", file], storeOnly);
    for (const failure of IMPORT_FAILURES) {
      harness.use({ google: [failure.handler] });
      const run = await importAccount();
      outputs.push(run.stdout, run.stderr);
      expect(run.code).toBe(1);
    }
    harness.use({});
    const imported = await importAccount();
    outputs.push(imported.stdout, imported.stderr);
    expect(imported.code).toBe(0);

    // Each call is a process of its own; two at a time, each scenario on its own pair of fakes
    // (same credentials, same store), so the handlers of one cannot answer another.
    let failed = 0;
    const queue = [...MARKETO_SCENARIOS, ...GOOGLE_SCENARIOS].filter((s) => CLI_SCENARIOS.has(s.name));
    const worker = async () => {
      for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
        const fork = await harness.fork();
        if (scenario.tool.startsWith("google_")) {
          // The fork's own store holds the account, connected against the fork's fakes.
          const imported = await runCli(
            ["accounts", "import", "--label", "main", "--refresh-token-file", file],
            fork.env,
          );
          outputs.push(imported.stdout, imported.stderr);
          expect(imported.code).toBe(0);
        }
        fork.use(scenario);
        const run = await runCli(
          ["call", scenario.tool, "--input", JSON.stringify(scenario.input)],
          fork.env,
        );
        outputs.push(run.stdout, run.stderr);
        if (run.code !== 0) failed += 1;
      }
    };
    await Promise.all([worker(), worker()]);

    expect(leaksIn(outputs, harness)).toEqual([]);
    expect(failed).toBe(CLI_SCENARIOS.size - 3);
    expect(echoedCanaries(harness)).toBeGreaterThan(20);
  });
});
