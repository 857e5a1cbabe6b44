import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  HttpMcp,
  type RpcResponse,
  requireBuild,
  runCli,
  StdioMcp,
} from "../helpers/fake-services/drivers.js";
import { echoedCanaries, type Harness, leaksIn, startHarness } from "../helpers/fake-services/harness.js";
import { GOOGLE_SCENARIOS, MARKETO_SCENARIOS } from "../helpers/fake-services/scenarios.js";

/**
 * The built server, as MCP clients run it, spoken to in raw JSON-RPC: every failure path of both
 * services, trace logging on; every byte the server process writes (stdout, stderr) and every HTTP
 * answer is searched for the canaries.
 */
describe("canaries through MCP (the built `serve`, raw JSON-RPC)", () => {
  let harness: Harness;
  beforeAll(() => requireBuild());
  beforeEach(async () => {
    harness = await startHarness();
    const imported = await runCli(
      ["accounts", "import", "--label", "main", "--refresh-token-file", await harness.refreshTokenFile()],
      harness.env,
    );
    expect(imported.code).toBe(0);
  });
  afterEach(async () => harness.close());

  async function drive(server: { call(name: string, args: unknown): Promise<RpcResponse> }): Promise<number> {
    let errors = 0;
    for (const scenario of [...MARKETO_SCENARIOS, ...GOOGLE_SCENARIOS]) {
      harness.use(scenario);
      const response = await server.call(scenario.tool, scenario.input);
      if (response.result?.isError) errors += 1;
    }
    harness.use({});
    return errors;
  }

  it.each([
    ["stdio: no canary on stdout or stderr", StdioMcp.start],
    ["Streamable HTTP: no canary in any answer, nor on the server's stdout or stderr", HttpMcp.start],
  ] as const)("over %s", async (_name, start) => {
    const server = await start(harness.env);
    const errors = await drive(server);
    await server.close();
    expect(leaksIn([server.bytes], harness)).toEqual([]);
    expect(errors).toBeGreaterThan(MARKETO_SCENARIOS.length + GOOGLE_SCENARIOS.length - 5);
    expect(echoedCanaries(harness)).toBeGreaterThan(30);
  });
});
