import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { isMartechError } from "../../src/errors.js";
import { MemoryState } from "../../src/state/memory.js";
import { runToolStep } from "../../src/tools/run.js";
import { Workspace } from "../../src/workspace.js";
import { echoedCanaries, type Harness, leaksIn, startHarness } from "../helpers/fake-services/harness.js";
import { GOOGLE_SCENARIOS, IMPORT_FAILURES, MARKETO_SCENARIOS } from "../helpers/fake-services/scenarios.js";

/** Every way the plugin API shows an error: message, String(), toJSON(), util.inspect (cause chain), stack. */
function renderings(error: unknown): string[] {
  const out = [String(error), inspect(error, { depth: 10, showHidden: true })];
  if (error instanceof Error) {
    out.push(error.message, error.stack ?? "");
    let cause: unknown = error.cause;
    for (let depth = 0; cause !== undefined && depth < 10; depth += 1) {
      out.push(inspect(cause, { depth: 10 }), String(cause));
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  if (isMartechError(error))
    out.push(JSON.stringify(error.toJSON()), error.hint ?? "", JSON.stringify(error.details));
  return out;
}

describe("canaries through the plugin API (runToolStep)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => harness.close());

  it("no canary in any result or error of any failure path of either service", async () => {
    const workspace = new Workspace({
      env: harness.env,
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    const outputs: string[] = [];
    let errors = 0;
    const capture = async (run: () => Promise<unknown>) => {
      try {
        outputs.push(JSON.stringify(await run()));
      } catch (error) {
        errors += 1;
        outputs.push(...renderings(error));
      }
    };
    for (const failure of IMPORT_FAILURES) {
      harness.use({ google: [failure.handler] });
      await capture(() =>
        workspace.importAccount({ label: "main", refreshToken: harness.creds.google.refreshToken }),
      );
    }
    harness.use({});
    await capture(() =>
      workspace.importAccount({ label: "main", refreshToken: harness.creds.google.refreshToken }),
    );
    for (const scenario of [...MARKETO_SCENARIOS, ...GOOGLE_SCENARIOS]) {
      harness.use(scenario);
      await capture(async () => runToolStep(scenario.tool, scenario.input, await workspace.toolContext({})));
    }
    harness.use({});
    await workspace.close();

    expect(leaksIn(outputs, harness)).toEqual([]);
    // The suite can fail: the fakes were sent the canaries and echoed them in nearly every answer.
    expect(echoedCanaries(harness)).toBeGreaterThan(30);
    expect(errors).toBeGreaterThanOrEqual(
      IMPORT_FAILURES.length + MARKETO_SCENARIOS.length + GOOGLE_SCENARIOS.length - 3,
    );
  });
});
