import type { Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshHome, occupyPort, type Run, run } from "../helpers/cli.js";

/** One `error:` line and nothing else, naming the port and what changes it; exit 1 at once. */
function expectPortError(result: Run, port: number, ...changes: string[]): void {
  // A command that hangs is killed by run() after 15 s and reports code null.
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^error: Port ${port} .*already in use`));
  for (const change of changes) expect(lines[0]).toContain(change);
  expect(result.stdout).toBe("");
}

describe("a taken port", () => {
  let taken: { port: number; server: Server };
  let home: string;
  beforeAll(async () => {
    taken = await occupyPort();
    home = await freshHome();
  });
  afterAll(() => taken.server.close());

  it("npm start (start) exits 1 with one error line, its sandboxes closed", async () => {
    const result = await run(["start", "--port", String(taken.port)], { MARTECH_STEPS_HOME: home });
    expectPortError(result, taken.port, "--port", "MARTECH_STEPS_PORT");
  });

  it("start reads the port from MARTECH_STEPS_PORT and says so", async () => {
    const result = await run(["start"], { MARTECH_STEPS_HOME: home, MARTECH_STEPS_PORT: String(taken.port) });
    expectPortError(result, taken.port, "MARTECH_STEPS_PORT");
  });

  it("sandbox exits 1 naming --marketo-port when the Marketo port is taken", async () => {
    const result = await run(["sandbox", "--marketo-port", String(taken.port), "--google-port", "0"], {
      MARTECH_STEPS_HOME: home,
    });
    expectPortError(result, taken.port, "--marketo-port");
  });

  it("sandbox exits 1 naming --google-port when only the Google port is taken (Marketo already started)", async () => {
    const result = await run(["sandbox", "--marketo-port", "0", "--google-port", String(taken.port)], {
      MARTECH_STEPS_HOME: home,
    });
    expectPortError(result, taken.port, "--google-port");
  });

  it("serve --sandbox --http exits 1 with its emulators closed", async () => {
    const result = await run(["serve", "--sandbox", "--http", "--port", String(taken.port)], {
      MARTECH_STEPS_HOME: home,
    });
    // serve --sandbox names its emulators on stderr before the server starts.
    const errors = result.stderr.split("\n").filter((line) => line.startsWith("error:"));
    expect(errors).toHaveLength(1);
    expectPortError({ ...result, stderr: errors[0]! }, taken.port, "--port", "MARTECH_STEPS_PORT");
  });
});
