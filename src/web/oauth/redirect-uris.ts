/**
 * Which redirect URIs the embedded authorization server accepts, at registration (RFC 7591, and a Client ID
 * Metadata Document's) and again at every authorization request: the MCP authorization specification's
 * "All redirect URIs MUST be either localhost or use HTTPS"
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/security-considerations#communication-security),
 * loopback as RFC 8252 section 7.3 describes it (http, on a loopback IP literal; `localhost`, which the MCP
 * text names), https anywhere. Refused: userinfo (`http://127.0.0.1:9@evil.example/cb` goes to evil.example),
 * plain http elsewhere (the code would cross the network in clear), look-alikes (`localhost.evil.example`,
 * `127.0.0.1.nip.io`) and a host not written as the URL parser writes it (`0x7f.1`, `2130706433`, an IDN not
 * in punycode): the consent page shows the parsed host, and the string a person reads must be that host.
 * Private-use URI schemes (RFC 8252 section 7.1, `com.example.app:/cb`) are refused too: they are neither
 * HTTPS nor loopback, as the MCP text asks, and any app on a device can claim one (RFC 8252 section 8.6).
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const UNSAFE_CHARACTERS = /[\x00-\x20\x7f\\]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are shown as "?" in a message
const CONTROL_CHARACTERS = /[\x00-\x1f\x7f]/g;

export type RedirectCheck =
  | {
      ok: true;
      /** The host (and port) the code goes to, as the consent page shows it. */
      host: string;
      /** A program on the same machine as the browser that approves (http on loopback). */
      loopback: boolean;
    }
  | { ok: false; reason: string };

/** RFC 8252 section 7.3's loopback literals, and `localhost` (the MCP specification's word). */
function isLoopbackHost(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  return octets !== null && octets[1] === "127";
}

/** The authority of a raw URI (between "//" and the path), or undefined when it has none. */
function rawAuthority(raw: string): string | undefined {
  const start = raw.indexOf("//");
  if (start === -1 || raw.slice(0, start).includes("/")) return undefined;
  const rest = raw.slice(start + 2);
  const end = rest.search(/[/?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/** Where a raw redirect URI would send the code, or why it is refused (the refusal names what to use instead). */
export function checkRedirectUri(raw: string): RedirectCheck {
  if (UNSAFE_CHARACTERS.test(raw))
    return { ok: false, reason: `"${printable(raw)}" holds spaces, control characters or a backslash` };
  const url = URL.parse(raw);
  if (!url) return { ok: false, reason: `"${printable(raw)}" is not an absolute URI` };
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return {
      ok: false,
      reason: `"${printable(raw)}" uses the ${url.protocol} scheme: redirect URIs must be https, or http on loopback (127.0.0.1, [::1], localhost)`,
    };
  const authority = rawAuthority(raw);
  if (authority === undefined)
    return {
      ok: false,
      reason: `"${printable(raw)}" has no "//" before its host: write ${url.protocol}//host/path`,
    };
  if (authority.includes("@") || url.username !== "" || url.password !== "")
    return {
      ok: false,
      reason: `"${printable(raw)}" carries userinfo ("@"): the code would go to the host after it`,
    };
  if (url.hash !== "" || raw.includes("#"))
    return { ok: false, reason: `"${printable(raw)}" has a fragment` };
  const hostPart = authority.replace(/:\d*$/, "").toLowerCase();
  if (hostPart !== url.hostname)
    return {
      ok: false,
      reason: `"${printable(raw)}" names its host as "${printable(hostPart)}", which is ${url.hostname}: write the host as ${url.hostname}`,
    };
  const loopback = url.protocol === "http:" && isLoopbackHost(url.hostname);
  if (url.protocol === "http:" && !loopback)
    return {
      ok: false,
      reason: `"${printable(raw)}" is plain http to ${url.hostname}: redirect URIs must be https, or http on loopback (127.0.0.1, [::1], localhost)`,
    };
  return { ok: true, host: url.host, loopback };
}

/** A URI as words in a message: at most 200 characters, control characters shown as "?". */
function printable(text: string): string {
  return text.slice(0, 200).replace(CONTROL_CHARACTERS, "?");
}
