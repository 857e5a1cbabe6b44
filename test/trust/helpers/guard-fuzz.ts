import fc from "fast-check";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { isMartechError } from "../../../src/errors.js";
import { MemoryState } from "../../../src/state/memory.js";
import { runToolStep } from "../../../src/tools/run.js";
import type { ToolContext } from "../../../src/tools/types.js";
import { Workspace } from "../../../src/workspace.js";
import type { Seen } from "./fake-server.js";
import { type Harness, startHarness } from "./harness.js";

/**
 * The endpoint guard of both API Call steps, driven through runToolStep with generated endpoints built
 * from what breaks URL handling (dot and slash look-alikes, overlong and %u escapes, double encoding,
 * control characters, lone surrogates, schemes, hosts, ;, ?, #, @...). Each case is judged by what the
 * recording loopback server actually received: the fake's own host, the step's API prefix, also once a
 * lenient gateway has decoded, normalised and resolved the path; never the identity or OAuth path; and
 * a refused endpoint sends nothing at all.
 */
/** 100,000 in all; a GA case costs about twice a Marketo one (its schema is built per call), so it gets fewer. */
export const MARKETO_CASES = 60_000;
export const GOOGLE_CASES = 40_000;
const SEED = 20_260_601;

const PIECES = [
  "..",
  ".",
  "%2e",
  "%2E",
  "%2e%2e",
  "%252e",
  "%252e%252e",
  "%c0%ae",
  "%c0%2e",
  "%e0%80%ae",
  "%u002e",
  "%u002E%u002E",
  "\uff0e",
  "\u2024",
  "\u2025",
  "\ufe52",
  "\u3002",
  "\uff0f",
  "\u2215",
  "\u2044",
  "\\",
  "%5c",
  "%5C",
  "%2f",
  "%2F",
  "%252f",
  "@",
  ":",
  ";",
  "?",
  "#",
  "%23",
  "%3f",
  "%40",
  "%3a",
  "//",
  "identity",
  "oauth",
  "token",
  "evil.com",
  "127.0.0.1",
  "http:",
  "https:",
  " ",
  "\t",
  "\r",
  "\n",
  "%00",
  "%0a",
  "%0d",
  "\u0000",
  "\ud800",
  "\udc00",
  "rest",
  "bulk",
  "v1",
  "asset",
  "v1beta",
  "properties",
  "123:runReport",
  "leads.json",
  "%41",
  "%7e",
  "%7E",
  "~",
  "-",
  "_",
  "..;",
  ".;",
  "..%2f",
  "..%5c",
  "%ff",
  "%",
  "%%",
  "%2",
  "\u0130",
  "\u200b",
  "\ufeff",
  "\u2028",
  "a",
  "b1",
  "x.json",
  "data",
  "admin",
  "accounts",
  "=",
  "&",
  "+",
  "*",
  "'",
];
const SEPARATORS = ["", "\\", "%2f", "//", "/./", "/../", "%5c"];
export const MARKETO_PREFIXES = [
  "/rest/",
  "/bulk/",
  "/rest/v1/",
  "/rest/asset/v1/",
  "/",
  "",
  "//",
  "/rest",
  "rest/",
  "/identity/",
  "/REST/",
  "https://evil.com/",
  "\\\\",
  "/%2e%2e/",
  "/rest/..",
  "http:",
  "/rest/%2e%2e/",
];
export const GOOGLE_PREFIXES = [
  "v1beta/",
  "/v1beta/",
  "v1beta/properties/123/",
  "/",
  "",
  "//",
  "v1beta",
  "oauth/",
  "/oauth/",
  "v1/",
  "https://evil.com/",
  "v1beta/..",
  "/v1beta/%2e%2e/",
  "..",
  "v1beta\\",
  "data/",
  "admin/",
];

/** Segments a real path has: most generated paths mix these with one or two pieces of PIECES. */
const PLAIN = [
  "v1",
  "leads.json",
  "lists",
  "1001",
  "properties",
  "123",
  "a_b",
  "x-y",
  "%41b",
  "%7e1",
  "items.json",
];

/**
 * Endpoints from four sources: a real-looking path with one piece of PIECES in it, an allowed or hostile
 * prefix followed by many pieces, any UTF-16 string, and fast-check's URL paths. The first three
 * prefixes of each list are allowed ones.
 */
export function endpoints(prefixes: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PLAIN) }, fc.constantFrom(...PIECES));
  const built = fc
    .tuple(
      fc.constantFrom(...prefixes),
      fc.array(fc.tuple(piece, fc.constantFrom(...SEPARATORS)), { maxLength: 7 }),
    )
    .map(([prefix, parts]) => prefix + parts.map(([p, sep]) => p + sep).join(""));
  // A real-looking path under an allowed prefix with a single piece of PIECES in it: many reach the server.
  const nearlyValid = fc
    .tuple(
      fc.constantFrom(...prefixes.slice(0, 3)),
      fc.array(fc.constantFrom(...PLAIN), { maxLength: 3 }),
      fc.constantFrom(...PIECES),
      fc.array(fc.constantFrom(...PLAIN), { maxLength: 3 }),
    )
    .map(([prefix, before, odd, after]) => prefix + [...before, odd, ...after].join("/"));
  return fc.oneof(
    { weight: 4, arbitrary: nearlyValid },
    { weight: 4, arbitrary: built },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...prefixes), fc.string({ unit: "binary", maxLength: 30 }))
        .map(([p, s]) => p + s),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...prefixes), fc.webPath()).map(([p, s]) => p + s) },
  );
}

/** The path as a lenient gateway might see it: escapes decoded (%XX, %uXXXX, overlong), NFKC, \\ as /, dots resolved. */
export function lenient(path: string): string {
  let text = path;
  for (let round = 0; round < 3; round += 1) {
    text = text
      .replace(/%u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/%c0%ae|%e0%80%ae/gi, ".")
      .replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
  text = text.normalize("NFKC").replace(/\\/g, "/");
  return new URL(text.startsWith("/") ? text : `/${text}`, "http://gateway.invalid").pathname;
}

export interface Judge {
  host: string;
  /** The step's API: every request must stay under one of these, as sent and as a gateway resolves it. */
  prefixes: readonly string[];
  /** The token endpoint on the same host: only the connector's own token requests may reach it. */
  identity: string;
}

/** Why a request the guard let through is wrong, or undefined when it is fine. */
function misdirected(seen: Seen, judge: Judge): string | undefined {
  if (seen.host !== judge.host) return `host ${seen.host}`;
  if (!judge.prefixes.some((p) => seen.path.startsWith(p))) return `path ${seen.path}`;
  const resolved = lenient(seen.path);
  if (!judge.prefixes.some((p) => resolved.startsWith(p))) return `path ${seen.path} resolves to ${resolved}`;
  if (!/^Bearer \S+$/.test(seen.headers.authorization ?? "")) return "a request without its bearer token";
  return undefined;
}

/** A workspace on both fakes with limits out of the way (the guard is under test, not the limiter). */
export async function fuzzWorkspace(): Promise<{
  harness: Harness;
  workspace: Workspace;
  context: ToolContext;
}> {
  const harness = await startHarness({
    MARKETO_CALLS_PER_WINDOW: "100000000",
    MARKETO_DAILY_QUOTA: "100000000",
    MARTECH_STEPS_DEADLINE_MS: "10000",
  });
  const workspace = new Workspace({
    env: harness.env,
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
  });
  await workspace.importAccount({ label: "main", refreshToken: harness.creds.google.refreshToken });
  return { harness, workspace, context: await workspace.toolContext({}) };
}

/**
 * Runs `numRuns` generated inputs through runToolStep and judges each by what `server` received since:
 * a refused endpoint (invalid_input) sent nothing; anything else went only where `judge` allows; no
 * error is untyped. Returns how many requests were sent and how many endpoints were refused.
 */
export async function fuzzStep(options: {
  tool: string;
  context: ToolContext;
  server: { seen: Seen[] };
  judge: Judge;
  input: fc.Arbitrary<{ endpoint: string } & Record<string, unknown>>;
  numRuns: number;
}): Promise<{ sent: number; refused: number }> {
  const { server, judge } = options;
  let sent = 0;
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(options.input, async (args) => {
      const before = server.seen.length;
      let error: unknown;
      try {
        await runToolStep(options.tool, args, options.context);
      } catch (caught) {
        error = caught;
      }
      // Only token requests are kept (judged by the caller): flat memory over tens of thousands of cases.
      const arrived = server.seen.splice(before);
      server.seen.push(...arrived.filter((s) => s.path === judge.identity));
      const received = arrived.filter((s) => s.path !== judge.identity);
      if (error !== undefined && !isMartechError(error)) throw new Error(`untyped error: ${String(error)}`);
      if (isMartechError(error) && error.code === "invalid_input") {
        refused += 1;
        if (received.length > 0)
          throw new Error(`refused, yet sent ${received.map((r) => r.target).join(", ")}`);
        return;
      }
      sent += received.length;
      for (const seen of received) {
        const wrong = misdirected(seen, judge);
        if (wrong) throw new Error(`${JSON.stringify(args.endpoint)} was sent to ${wrong}`);
      }
    }),
    { numRuns: options.numRuns, seed: SEED, endOnFailure: true },
  );
  return { sent, refused };
}
