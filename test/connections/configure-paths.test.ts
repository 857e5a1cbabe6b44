import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCredentialStore, MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { configureMarketo, removeMarketo as roomRemove } from "../../src/connections/marketo/configure.js";
import { removeGoogleClient, saveGoogleClient } from "../../src/console/google.js";
import { removeMarketo, saveMarketo } from "../../src/console/marketo.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/marketo/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { freshHome, run } from "../helpers/cli.js";

/*
 * `martech-steps marketo configure|remove` and the console's Marketo card are two adapters over one
 * configure flow, the Marketo room's (src/connections/marketo/configure.ts): both must refuse the same
 * credentials with the same words and save (and remove) the same shape as the room itself does.
 */

let sandbox: MarketoSandbox;
const homes: string[] = [];

async function home(): Promise<string> {
  const dir = await freshHome("martech-configure-paths-");
  homes.push(dir);
  return dir;
}

function consoleWorkspace(): Workspace {
  return new Workspace({ env: {}, store: new MemoryCredentialStore(), state: new MemoryState() });
}

async function cliConfigure(dir: string, secret: string) {
  return run(
    ["marketo", "configure", "--client-id", sandbox.clientId, "--endpoint", sandbox.restEndpoint],
    { MARTECH_STEPS_HOME: dir },
    { stdin: `${secret}\n` },
  );
}

/** What the CLI saved, read back from its file store. */
async function cliSaved(dir: string) {
  return (await new FileCredentialStore({ home: dir, env: { MARTECH_STEPS_HOME: dir } }).read("default"))
    .marketo;
}

beforeAll(async () => {
  sandbox = await startMarketoSandbox();
});

afterAll(async () => {
  await sandbox.close();
  await Promise.all(homes.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the CLI and the console configure Marketo through the same room function", () => {
  it("refuse the same wrong secret with the same message, and save nothing", async () => {
    const dir = await home();
    const cli = await cliConfigure(dir, "not-the-secret");
    const workspace = consoleWorkspace();
    const error = await saveMarketo(workspace, {
      clientId: sandbox.clientId,
      clientSecret: "not-the-secret",
      restEndpoint: sandbox.restEndpoint,
    }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(cli.code).toBe(1);
    expect(cli.stderr.trim()).toBe(`error: ${(error as Error).message}`);
    expect(await cliSaved(dir)).toBeUndefined();
    expect((await workspace.store.read("default")).marketo).toBeUndefined();
  });

  it("save the same shape as the room's configure, whatever form the endpoint was entered in", async () => {
    const dir = await home();
    expect((await cliConfigure(dir, sandbox.clientSecret)).code).toBe(0);
    const workspace = consoleWorkspace();
    await saveMarketo(workspace, {
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      // Without /rest: both store `<origin>/rest`.
      restEndpoint: new URL(sandbox.restEndpoint).origin,
    });
    const room = new MemoryCredentialStore();
    await configureMarketo(
      { workspace: "default", read: () => room.read("default"), update: (c) => room.update("default", c) },
      {
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        origin: new URL(sandbox.restEndpoint),
      },
      { verify: false },
    );
    const expected = (await room.read("default")).marketo;
    expect(expected).toEqual({
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      restEndpoint: `${new URL(sandbox.restEndpoint).origin}/rest`,
    });
    expect(await cliSaved(dir)).toEqual(expected);
    expect((await workspace.store.read("default")).marketo).toEqual(expected);

    // And remove the same way: the connection goes, nothing else of the document changes.
    expect((await run(["marketo", "remove"], { MARTECH_STEPS_HOME: dir })).code).toBe(0);
    await removeMarketo(workspace);
    await roomRemove({
      workspace: "default",
      read: () => room.read("default"),
      update: (c) => room.update("default", c),
    });
    const after = await room.read("default");
    expect(
      await new FileCredentialStore({ home: dir, env: { MARTECH_STEPS_HOME: dir } }).read("default"),
    ).toEqual(after);
    expect(await workspace.store.read("default")).toEqual(after);
  });
});

describe("the CLI and the console save the Google OAuth client through the same room function", () => {
  it("save the same shape, and the console removes it again", async () => {
    const dir = await home();
    const cli = await run(
      ["accounts", "client", "--client-id", " 1234-abc.apps.googleusercontent.com "],
      {
        MARTECH_STEPS_HOME: dir,
      },
      { stdin: "client-secret\n" },
    );
    expect(cli.code).toBe(0);
    const workspace = consoleWorkspace();
    await saveGoogleClient(workspace, {
      clientId: "1234-abc.apps.googleusercontent.com",
      clientSecret: "client-secret",
    });
    const saved = (await workspace.store.read("default")).googleClient;
    expect(saved).toEqual({ clientId: "1234-abc.apps.googleusercontent.com", clientSecret: "client-secret" });
    const cliStore = new FileCredentialStore({ home: dir, env: { MARTECH_STEPS_HOME: dir } });
    expect((await cliStore.read("default")).googleClient).toEqual(saved);
    await removeGoogleClient(workspace);
    expect((await workspace.store.read("default")).googleClient).toBeUndefined();
  });
});
