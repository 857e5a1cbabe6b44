import { describe, expect, it } from "vitest";
import { freshHome, startCli } from "../helpers/cli.js";
import { rawRequest } from "../helpers/console.js";

/**
 * Issue 26, item 6: behind TLS the console's session cookie was Secure only with a separate setting
 * (MARTECH_STEPS_COOKIE_SECURE=1) that nothing asked for. It is Secure when the server's public URL
 * (MARTECH_STEPS_OAUTH_AUDIENCE) is https; off loopback without either, `start` says so at start.
 */

const KEY = "c".repeat(32);
const WARNING =
  /^warning: the console's session cookie is not Secure\. .*MARTECH_STEPS_COOKIE_SECURE=1.*MARTECH_STEPS_COOKIE_SECURE=0/m;

/** `start` on every interface with an API key; its banner and the cookie an API key login gets. */
async function startOffLoopback(env: Record<string, string>) {
  const started = await startCli(["start", "--host", "0.0.0.0", "--port", "0"], {
    MARTECH_STEPS_HOME: await freshHome("cookie-"),
    MARTECH_STEPS_API_KEYS: `default:${KEY}`,
    ...env,
  });
  try {
    const port = /:(\d+)\/mcp/.exec(started.banner)?.[1] as string;
    const origin = `http://127.0.0.1:${port}`;
    const login = await rawRequest(origin, "POST", "/console/api/login", {
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ apiKey: KEY }),
    });
    expect(login.status).toBe(200);
    return { banner: started.banner, cookie: String(login.headers["set-cookie"]) };
  } finally {
    await started.stop();
  }
}

describe("the console's session cookie of a server others reach", () => {
  it("is Secure and __Host- when the public /mcp URL is https, with no other setting and no warning", async () => {
    const { banner, cookie } = await startOffLoopback({
      MARTECH_STEPS_OAUTH_AUDIENCE: "https://mcp.example.com/mcp",
    });
    expect(cookie).toMatch(/^__Host-martech_console_\d+=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure;/);
    expect(banner).not.toMatch(WARNING);
  }, 90_000);

  it("without an https URL: not Secure, and start says how to choose; MARTECH_STEPS_COOKIE_SECURE=0 chooses", async () => {
    const plain = await startOffLoopback({});
    expect(plain.cookie).not.toMatch(/Secure/);
    expect(plain.banner).toMatch(WARNING);
    const chosen = await startOffLoopback({ MARTECH_STEPS_COOKIE_SECURE: "0" });
    expect(chosen.cookie).not.toMatch(/Secure/);
    expect(chosen.banner).not.toMatch(WARNING);
  }, 120_000);
});
