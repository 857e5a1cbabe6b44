/**
 * `martech-steps console-link` prints a new login link of a running `start`, without a restart, as the
 * used-link page tells a person to do; only a process of this machine holding the admin token (a file
 * only its user reads) gets one. Runs the built CLI (npm run build first).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import { BIN, run } from "../helpers/cli.js";
import { rawRequest } from "../helpers/console.js";
import { tempDir } from "../helpers/temp.js";

describe("a new console login link from a running server", () => {
  let child: ChildProcess;
  let home: string;
  let origin: string;
  let printed: URL;

  beforeAll(async () => {
    home = await tempDir("martech-console-link-");
    child = spawn(process.execPath, [BIN, "start", "--port", "0"], {
      env: { ...childEnv(), MARTECH_STEPS_HOME: home },
    });
    printed = await new Promise<URL>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`start printed no console URL: ${out}`)), 20_000);
      child.stderr?.on("data", (chunk) => {
        out += chunk;
        const found = /^Console \(open in your browser; the login link works once\): (http:\/\/\S+)$/m.exec(
          out,
        );
        if (found && /Press Ctrl-C/.test(out)) {
          clearTimeout(timer);
          expect(out).toMatch(/^ {2}Another login link, without a restart: martech-steps console-link$/m);
          resolve(new URL(found[1] as string));
        }
      });
    });
    origin = printed.origin;
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await gone;
    }
  });

  const env = () => ({ MARTECH_STEPS_HOME: home });
  const file = () => join(home, "consoles", `${new URL(origin).port}.json`);

  it("prints a fresh one-time link after the printed one was used, and it logs in", async () => {
    const used = await rawRequest(origin, "GET", `/?token=${printed.searchParams.get("token")}`);
    expect(used.status).toBe(303);
    const again = await rawRequest(origin, "GET", `/?token=${printed.searchParams.get("token")}`);
    expect(again.headers.location).toBe("/#/login-link-used");
    const answer = await run(["console-link"], env());
    expect(answer.stderr).toBe("");
    expect(answer.code).toBe(0);
    const link = new URL(answer.stdout.trim());
    expect(link.origin).toBe(origin);
    const token = link.searchParams.get("token") ?? "";
    expect(token).toMatch(/^[\w-]{43}$/);
    const entered = await rawRequest(origin, "GET", `/?token=${token}`);
    expect(entered.status).toBe(303);
    expect(entered.headers.location).toBe("/");
    const cookie = String(entered.headers["set-cookie"]).split(";")[0] ?? "";
    const session = await rawRequest(origin, "GET", "/console/api/session", { headers: { cookie } });
    expect(JSON.parse(session.text)).toMatchObject({ workspace: "default" });
  });

  it("keeps the admin token in a file only its user can read", () => {
    expect(statSync(join(home, "consoles")).mode & 0o777).toBe(0o700);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it("gives no link without the token, with a wrong one, or to a web page", async () => {
    const path = "/console/admin/login-link";
    const host = new URL(origin).host;
    const json = { host, "content-type": "application/json" };
    const none = await rawRequest(origin, "POST", path, { headers: json, body: "{}" });
    expect(none.status).toBe(401);
    const wrong = await rawRequest(origin, "POST", path, {
      headers: { ...json, authorization: `Bearer ${"x".repeat(43)}` },
      body: "{}",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toMatch(/token=/);
    const { token } = JSON.parse((await import("node:fs")).readFileSync(file(), "utf8")) as { token: string };
    // Even with the token: a browser's request (Origin, Fetch Metadata) is refused.
    const browserHeaders: Record<string, string>[] = [{ origin }, { "sec-fetch-site": "same-origin" }];
    for (const extra of browserHeaders) {
      const page = await rawRequest(origin, "POST", path, {
        headers: { ...json, authorization: `Bearer ${token}`, ...extra },
        body: "{}",
      });
      expect(page.status).toBe(403);
      expect(page.text).not.toMatch(/token=/);
    }
    // A rebound name (DNS rebinding) is refused by the server's Host check first.
    const rebound = await rawRequest(origin, "POST", path, {
      headers: { ...json, host: "evil.example", authorization: `Bearer ${token}` },
      body: "{}",
    });
    expect(rebound.status).toBe(403);
  });

  it("refuses a workspace name no workspace can have, instead of printing a link that cannot work", async () => {
    const answer = await run(["console-link", "--workspace", "Not A/Name"], env());
    expect(answer.code).not.toBe(0);
    expect(answer.stdout).toBe("");
    expect(answer.stderr).toMatch(/is not a workspace name\. Accepted: lowercase letters/);
    // The server refuses it too (another client of the admin route).
    const { token } = JSON.parse((await import("node:fs")).readFileSync(file(), "utf8")) as { token: string };
    const asked = await rawRequest(origin, "POST", "/console/admin/login-link", {
      headers: {
        host: new URL(origin).host,
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ workspace: "../other" }),
    });
    expect(asked.status).toBe(400);
    expect(asked.text).not.toMatch(/token=/);
  });

  it("says how to get a server when none is running, once this one stopped (its file is gone)", async () => {
    const gone = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await gone;
    expect(readdirSync(join(home, "consoles"))).toEqual([]);
    const answer = await run(["console-link"], env());
    expect(answer.code).not.toBe(0);
    expect(answer.stderr).toMatch(
      /No console is running for the credential folder .*Start one with: npm start/,
    );
  });
});
