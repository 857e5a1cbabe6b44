/**
 * Whom a request from an address counts against, for the limits kept per client (the console's login, the
 * embedded authorization server's registrations and sign-in requests). An IPv6 client usually holds a
 * whole /64 (RFC 6177 and SLAAC privacy addresses, RFC 8981), so counting per address would give it 2^64
 * fresh allowances: it counts per /64. An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d, the
 * same client as a.b.c.d. https://www.rfc-editor.org/rfc/rfc8981 https://www.rfc-editor.org/rfc/rfc6177
 */
import { isIPv4, isIPv6 } from "node:net";

export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1] as string;
  if (isIPv4(bare) || !isIPv6(bare)) return bare;
  return `${hextets(bare).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as hex without leading zeros. */
export function hextets(address: string): string[] {
  const groups = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [group];
          const [a, b, c, d] = group.split(".").map(Number) as [number, number, number, number];
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const [head = "", tail] = address.split("::");
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const zeros = Array.from({ length: 8 - front.length - back.length }, () => "0");
  return [...front, ...zeros, ...back].map((group) => Number.parseInt(group, 16).toString(16));
}
