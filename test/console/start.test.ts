import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import { stopChild } from "../helpers/cli.js";
import { rawRequest } from "../helpers/console.js";
import { tempDir } from "../helpers/temp.js";

const BIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

describe("npm start serves the console beside /mcp", () => {
  let child: ChildProcess;
  let login: URL;

  beforeAll(async () => {
    const home = await tempDir("martech-console-start-");
    child = spawn(process.execPath, [BIN, "start", "--port", "0"], {
      env: { ...childEnv(), MARTECH_STEPS_HOME: home },
    });
    login = await new Promise<URL>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`start printed no console URL: ${out}`)), 15_000);
      child.stderr?.on("data", (chunk) => {
        out += chunk;
        const found = /^Console \(open in your browser; the login link works once\): (http:\/\/\S+)$/m.exec(
          out,
        );
        if (found && /Press Ctrl-C/.test(out)) {
          clearTimeout(timer);
          resolve(new URL(found[1] as string));
        }
      });
    });
  });
  afterAll(() => stopChild(child));

  it("prints the page's URL with a one-time token, which opens a session on the sandbox", async () => {
    expect(login.pathname).toBe("/");
    expect(login.hostname).toBe("127.0.0.1");
    const token = login.searchParams.get("token") ?? "";
    expect(token).toMatch(/^[\w-]{43}$/);
    const origin = login.origin;
    const entered = await rawRequest(origin, "GET", `/?token=${token}`);
    expect(entered.status).toBe(303);
    const cookie = String(entered.headers["set-cookie"]).split(";")[0] ?? "";
    const page = await rawRequest(origin, "GET", "/");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/,
    );
    const script = /src="(\/console\/assets\/index-[\w-]+\.js)"/.exec(page.text)?.[1] ?? "";
    expect((await rawRequest(origin, "GET", script)).status).toBe(200);
    const session = await rawRequest(origin, "GET", "/console/api/session", { headers: { cookie } });
    expect(JSON.parse(session.text)).toMatchObject({
      workspace: "default",
      sandbox: { marketo: true, google: true },
    });
    const marketo = await rawRequest(origin, "GET", "/console/api/marketo", { headers: { cookie } });
    expect(JSON.parse(marketo.text).active).toMatchObject({ source: "environment", sandbox: true });
  });
});
