/**
 * TEST ONLY: the person's part of the conformance suite's authorization-code-grant scenario, for
 * .ci/conformance. The suite (`conformance authorization --client-id … -p <port>`) prints an authorization
 * URL for someone to open in a browser and waits for the redirect on http://127.0.0.1:<port>/callback; here a
 * scripted browser does what a person does on the embedded authorization server: logs in to the console
 * with its one-time link, approves the client on the consent page (CSRF token, same-origin POST), and
 * follows the redirect to the suite's callback.
 *
 *   tsx approve.ts register <mcp-url> <callback-port>     registers the suite's client (RFC 7591); prints its id
 *   tsx approve.ts approve <login-url> <suite-output-file> waits for the suite's URL, approves, delivers the code
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const [command, first, second] = process.argv.slice(2);

/** A browser's cookie jar over fetch, for one origin: enough for the console and the consent page. */
class Browser {
  readonly jar = new Map<string, string>();
  async request(url: URL, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const answer = await fetch(url, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: { cookie, ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    for (const line of answer.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const eq = pair.indexOf("=");
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (value === "" || /max-age=0/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return answer;
  }
  /** Follows redirects within `origin`; returns the last page's URL and answer, or the first URL elsewhere. */
  async follow(start: URL, origin: string): Promise<{ url: URL; answer?: Response; away?: URL }> {
    let url = start;
    for (let hops = 0; hops < 10; hops++) {
      const answer = await this.request(url);
      const location = answer.headers.get("location");
      if (answer.status < 300 || answer.status >= 400 || !location) return { url, answer };
      await answer.body?.cancel();
      url = new URL(location, url);
      if (url.origin !== origin) return { url, away: url };
    }
    throw new Error("too many redirects");
  }
}

async function register(mcpUrl: string, port: string): Promise<void> {
  const origin = new URL(mcpUrl).origin;
  const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server/oauth`)).json()) as {
    registration_endpoint: string;
  };
  const answer = await fetch(metadata.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "MCP conformance suite",
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  if (answer.status !== 201) throw new Error(`registration refused: ${answer.status} ${await answer.text()}`);
  process.stdout.write(`${((await answer.json()) as { client_id: string }).client_id}\n`);
}

/** The authorization URL the suite printed (its line starts with the server's authorization endpoint). */
async function suiteUrl(outputFile: string, origin: string): Promise<URL> {
  for (let tries = 0; tries < 300; tries++) {
    const line = readFileSync(outputFile, "utf8")
      .split("\n")
      .find((text) => text.startsWith(`${origin}/oauth/auth?`));
    if (line) return new URL(line.trim());
    await sleep(200);
  }
  throw new Error(`the suite printed no authorization URL in ${outputFile}`);
}

async function approve(loginUrl: string, outputFile: string): Promise<void> {
  const login = new URL(loginUrl);
  const browser = new Browser();
  const start = await suiteUrl(outputFile, login.origin);
  const consent = await browser.follow(start, login.origin);
  if (consent.answer?.status !== 401)
    throw new Error(`expected the console's login first, got ${consent.answer?.status}`);
  await (await browser.request(login)).body?.cancel();
  const page = await browser.request(consent.url);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (page.status !== 200 || !csrf) throw new Error(`no consent page: ${page.status}`);
  const approved = await browser.request(consent.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: login.origin },
    body: new URLSearchParams({ csrf, decision: "approve" }).toString(),
  });
  const next = approved.headers.get("location");
  if (approved.status !== 303 || !next) throw new Error(`approval refused: ${approved.status}`);
  const back = await browser.follow(new URL(next, consent.url), login.origin);
  if (!back.away) throw new Error(`no redirect to the client: ${back.answer?.status}`);

  // The suite's callback server: it reads the code and ends its wait.
  const delivered = await fetch(back.away);
  if (delivered.status !== 200) throw new Error(`the suite's callback answered ${delivered.status}`);
  process.stdout.write("approved the suite's client on the consent page\n");
}

if (command === "register" && first && second) await register(first, second);
else if (command === "approve" && first && second) await approve(first, second);
else {
  process.stderr.write(
    "usage: approve.ts register <mcp-url> <port> | approve <login-url> <suite-output-file>\n",
  );
  process.exit(2);
}
