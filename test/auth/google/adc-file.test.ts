/**
 * GOOGLE_APPLICATION_CREDENTIALS naming a file that blocks or never ends (issue 26, item 5): a FIFO hung
 * every tools/list and tools/call (the listing read the file for the account choice), /dev/zero grew the
 * server by gigabytes (each listing read it again). Now the listing never reads the file, a use refuses
 * what is not a small regular file at once and says what to do, and a key others can read is refused as
 * the store's own key file is.
 */
import { chmod } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { type GoogleSandbox, startGoogleSandbox } from "../../../src/sandbox/google/index.js";
import { MemoryState } from "../../../src/state/memory.js";
import { Workspace } from "../../../src/workspace.js";
import { mcpSession } from "../../helpers/mcp.js";
import { ODD_KINDS, type OddFiles, oddFiles, secretFile } from "../../helpers/odd-files.js";
import { tempDir } from "../../helpers/temp.js";

let sandbox: GoogleSandbox;
let odd: OddFiles;
let dir: string;

beforeAll(async () => {
  sandbox = await startGoogleSandbox();
  dir = await tempDir("adc-file-");
  odd = await oddFiles(dir);
});
afterAll(async () => {
  await sandbox?.close();
});

function workspace(file: string): Workspace {
  return new Workspace({
    env: {
      GOOGLE_APPLICATION_CREDENTIALS: file,
      GA4_DATA_API_URL: sandbox.dataApiUrl,
      GA4_ADMIN_API_URL: sandbox.adminApiUrl,
      GOOGLE_OAUTH_URL: sandbox.oauthUrl,
      GOOGLE_OAUTH_AUTHORIZE_URL: sandbox.authorizeUrl,
    },
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
  });
}

/** `work`, or a failure naming what hung: without the fix a FIFO never answers. */
async function inTime<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within 10 s`)), 10_000);
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}

const REPORT = {
  property: "412345671",
  account: "application-default",
  date_ranges: ["last7days"],
  metrics: ["sessions"],
};

describe("GOOGLE_APPLICATION_CREDENTIALS naming a file that blocks or never ends", () => {
  for (const name of Object.keys(ODD_KINDS) as (keyof typeof ODD_KINDS)[]) {
    it(`${name}: tools/list answers with the account, a call refuses it at once, the CLI's list shows it`, async () => {
      for (const path of [name === "zero" ? "/dev/zero" : odd[name], odd.links[name]]) {
        const ws = workspace(path);
        const session = await mcpSession(ws);
        try {
          const { tools } = await inTime("tools/list", session.client.listTools());
          const run = tools.find((tool) => tool.name === "google_analytics_run_reports");
          expect(JSON.stringify(run?.inputSchema)).toContain("application-default");
          const result = await inTime(
            "tools/call",
            session.client.callTool({ name: "google_analytics_run_reports", arguments: REPORT }),
          );
          expect(result.isError).toBe(true);
          const text = JSON.stringify(result.content);
          expect(text).toMatch(ODD_KINDS[name]);
          expect(text).toContain("GOOGLE_APPLICATION_CREDENTIALS");
          // What `accounts list` and the console show: listed, without what only the file tells.
          expect(await inTime("accounts list", ws.accounts.list())).toEqual([
            { label: "application-default", scopes: [], addedAt: "", from: "GOOGLE_APPLICATION_CREDENTIALS" },
          ]);
        } finally {
          await session.close();
          await ws.close();
        }
      }
    });
  }
});

describe("GOOGLE_APPLICATION_CREDENTIALS naming a key other users can read", () => {
  it("is refused as the store's key file is, saying chmod 600; then it works", async () => {
    const key = await sandbox.issueServiceAccountKey({ name: "adc-open", roles: { "100001": "viewer" } });
    const path = await secretFile(dir, "open-key.json", JSON.stringify(key), 0o644);
    await chmod(path, 0o644);
    const ws = workspace(path);
    const session = await mcpSession(ws);
    try {
      const refused = await session.client.callTool({
        name: "google_analytics_run_reports",
        arguments: REPORT,
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain(
        `Permissions 0644 for the credentials file ${path} are too open: other users could read the credentials in it. Run: chmod 600 ${path}`,
      );
      await chmod(path, 0o600);
      const ran = await session.client.callTool({ name: "google_analytics_run_reports", arguments: REPORT });
      expect(ran.isError, JSON.stringify(ran.content)).toBeFalsy();
      expect((await ws.accounts.list())[0]).toMatchObject({ serviceAccount: key.client_email });
    } finally {
      await session.close();
      await ws.close();
    }
  });
});
