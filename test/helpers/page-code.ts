/**
 * The console page's own modules (console/src) run in Node against a console fixture: the page's fetch,
 * relative to its origin, is sent with a logged-in session's cookie (and the page's own CSRF header); the
 * server runs in this process too, so its own requests (absolute URLs) keep Node's fetch. `onRun` sees
 * each step run's input the page sends.
 */
import { vi } from "vitest";
import { type ConsoleFixture, ConsolePage } from "./console.js";

/**
 * Loads a page module by name, from a service's room of the page when `room` names it
 * (console/src/marketo/). The page's modules import with `.ts` endings (the console's bundler config),
 * which the project's Node config does not type-check: each test states the shape it uses. Vite's
 * dynamic import reads each variable as one level of folders, hence the room apart.
 */
export const pageModule = (name: string, room?: string): Promise<Record<string, unknown>> =>
  room === undefined
    ? import(`../../console/src/${name}.ts`)
    : import(`../../console/src/${room}/${name}.ts`);

export async function pageFetchOn(
  fixture: ConsoleFixture,
  onRun: (input: Record<string, unknown>) => void = () => undefined,
): Promise<ConsolePage> {
  const session = new ConsolePage(fixture, []);
  await session.login();
  const nodeFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (path: string | URL | Request, init: RequestInit = {}) => {
    if (typeof path !== "string" || !path.startsWith("/")) return nodeFetch(path, init);
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    if (path.endsWith("/run") && body?.input) onRun(body.input);
    const headers = { ...(init.headers as Record<string, string>) };
    const answer = await session.call(init.method ?? "GET", path, body, headers);
    return new Response(answer.text, {
      status: answer.status,
      headers: { "content-type": String(answer.headers["content-type"] ?? "") },
    });
  });
  const api = (await pageModule("api")) as { loadSession(): Promise<unknown> };
  await api.loadSession();
  return session;
}
