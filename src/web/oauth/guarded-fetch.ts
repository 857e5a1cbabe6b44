/**
 * The one way the embedded authorization server fetches a URL a client named (a Client ID Metadata Document,
 * and a `jwks_uri` in one): oidc-provider's `fetch` option. The Client ID Metadata Document draft's rules
 * (https://www.ietf.org/archive/id/draft-ietf-oauth-client-id-metadata-document-02.html, sections 5, 8.6,
 * 8.7) and RFC 9700's: https only; GET only; every address the name resolves to must be public
 * (special-addresses.ts: not loopback, private, link-local, unique-local, multicast or unspecified), and the
 * connection goes to one of exactly those addresses (a lookup function that answers what was checked: a
 * second DNS answer between the check and the connection, as DNS rebinding gives, is never asked for); no
 * redirect is followed (a 3xx is handed back as it is, which oidc-provider refuses); the body is read up to
 * a size cap and the whole exchange ends by a deadline.
 */
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import type { IncomingMessage } from "node:http";
import { request } from "node:https";
import { isIP } from "node:net";
import { isLoopbackAddress, isPublicAddress } from "./special-addresses.js";

/** The whole exchange (lookup, connection, TLS, body) ends within this. */
export const FETCH_TIMEOUT_MS = 3_000;
/** Bytes read at most (a Client ID Metadata Document is held to 5 KB by oidc-provider's own limit). */
export const FETCH_MAX_BYTES = 64 * 1024;

/**
 * TEST ONLY. Lets the guard fetch from loopback (a test's local HTTPS server, with the test's own CA): the
 * draft's section 8.6 allows it "for development or testing purposes ... when the authorization server
 * itself is also running on a loopback address". Passed in code by a test harness (EmbeddedOptions), never
 * read from the environment or a setting; startEmbedded refuses it unless the server's public URL is on
 * loopback. Private, link-local and every other special address stay refused.
 */
export interface LoopbackDocumentsForTests {
  /** PEM of the certificate authority the test server's certificate chains to (the only one trusted). */
  ca: string;
}

export interface GuardOptions {
  timeoutMs?: number;
  maxBytes?: number;
  testOnlyLoopback?: LoopbackDocumentsForTests;
  /** The name lookup (tests answer with chosen addresses; DNS rebinding is a second, different answer). */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

/** A fetch the guard refused before anything was sent, or cut short. */
export class FetchRefused extends Error {}

type FetchInit = {
  method?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  signal?: AbortSignal | null;
};

export function guardedFetch(
  options: GuardOptions = {},
): (url: string | URL, init?: FetchInit) => Promise<Response> {
  const allowed = (address: string) =>
    isPublicAddress(address) || (options.testOnlyLoopback !== undefined && isLoopbackAddress(address));
  const resolve =
    options.lookup ?? ((hostname: string) => dnsLookup(hostname, { all: true, verbatim: true }));
  return async (input, init = {}) => {
    const url = new URL(String(input));
    if (url.protocol !== "https:") throw new FetchRefused(`only https URLs are fetched, not ${url.protocol}`);
    if (url.username || url.password) throw new FetchRefused("a URL with userinfo is not fetched");
    if ((init.method ?? "GET").toUpperCase() !== "GET") throw new FetchRefused("only GET is sent");
    const deadline = AbortSignal.any([
      AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS),
      ...(init.signal ? [init.signal] : []),
    ]);
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const family = isIP(hostname);
    // The lookup is inside the deadline: an attacker's own name server may answer as slowly as it likes
    // (dns.lookup runs on libuv's thread pool, which no signal cancels: the answer is left unread).
    const addresses =
      family !== 0 ? [{ address: hostname, family }] : await withinDeadline(resolve(hostname), deadline);
    if (addresses.length === 0) throw new FetchRefused(`${hostname} has no address`);
    const refused = addresses.find(({ address }) => !allowed(address));
    if (refused) throw new FetchRefused(`${hostname} resolves to ${refused.address}, a special-use address`);
    return exchange(url, addresses, new Headers(init.headers), deadline, options);
  };
}

/** `work`'s result, or FetchRefused once `signal` aborts, whichever comes first. */
function withinDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const late = () => reject(new FetchRefused("the fetch took too long"));
    if (signal.aborted) return late();
    signal.addEventListener("abort", late, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", late));
  });
}

/** One GET to one of `addresses` (checked), with TLS verified for the URL's host; never a redirect. */
function exchange(
  url: URL,
  addresses: LookupAddress[],
  headers: Headers,
  signal: AbortSignal,
  options: GuardOptions,
): Promise<Response> {
  const maxBytes = options.maxBytes ?? FETCH_MAX_BYTES;
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, {
      method: "GET",
      headers: Object.fromEntries(headers),
      agent: false,
      signal,
      // The connection may only go where the check said: the checked addresses, whatever DNS says now.
      lookup: (_hostname, lookupOptions, callback) => {
        const all = (lookupOptions as { all?: boolean }).all === true;
        const first = addresses[0] as LookupAddress;
        if (all) (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
        else (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
      },
      ...(options.testOnlyLoopback ? { ca: options.testOnlyLoopback.ca } : {}),
    });
    req.on("error", (error) => reject(signal.aborted ? new FetchRefused("the fetch took too long") : error));
    req.on("response", (res) => readAnswer(res, maxBytes).then(resolve, reject));
    req.end();
  });
}

const NULL_BODY = new Set([204, 205, 304]);

/** The answer as a fetch Response, its body read whole up to `maxBytes` (more: refused). */
async function readAnswer(res: IncomingMessage, maxBytes: number): Promise<Response> {
  const status = res.statusCode ?? 502;
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  if (status >= 300 && status < 400) {
    res.destroy();
    return new Response(null, { status, headers });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      res.destroy();
      throw new FetchRefused(`the answer is over ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  const body = NULL_BODY.has(status) ? null : Buffer.concat(chunks);
  return new Response(body, { status: status < 200 ? 502 : status, headers });
}
