/**
 * The addresses the authorization server never connects to when it fetches a URL a client named (a Client ID
 * Metadata Document): the special-purpose registries of RFC 6890 and their later entries, IPv4
 * (https://www.iana.org/assignments/iana-ipv4-special-registry/) and IPv6
 * (https://www.iana.org/assignments/iana-ipv6-special-registry/), plus multicast. The Client ID Metadata
 * Document draft, section 8.6: "Authorization servers MUST NOT fetch a Client ID Metadata Document URL ...
 * that resolve[s] to special-use IP addresses as defined in [RFC6890]"
 * (https://www.ietf.org/archive/id/draft-ietf-oauth-client-id-metadata-document-02.html#section-8.6).
 * Checked with Node's own net.BlockList.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";

const IPV4_SPECIAL: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private (RFC 1918)
  ["100.64.0.0", 10], // shared address space, carrier-grade NAT (RFC 6598)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.31.196.0", 24], // AS112
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // AS112 direct delegation
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the limited broadcast 255.255.255.255
];

const IPV6_SPECIAL: readonly [string, number][] = [
  ["::", 96], // unspecified, loopback (::1) and the deprecated IPv4-compatible addresses
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // IPv4/IPv6 translation (NAT64), which reaches any IPv4 address
  ["64:ff9b:1::", 48], // local-use translation
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, ...)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4, which embeds any IPv4 address
  ["3fff::", 20], // documentation (RFC 9637)
  ["5f00::", 16], // segment routing SIDs (RFC 9602)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

/**
 * One list per family: a BlockList also matches an IPv4 address against the IPv6 rules through its mapped
 * form (::ffff:a.b.c.d), which the IPv4-mapped rule above would then refuse whole.
 */
const SPECIAL = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const [network, prefix] of IPV4_SPECIAL) SPECIAL.ipv4.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of IPV6_SPECIAL) SPECIAL.ipv6.addSubnet(network, prefix, "ipv6");

/** Loopback only (127.0.0.0/8, ::1): what a test's allowance admits besides public addresses. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** A literal address without its zone, or undefined when the text is not one. */
function literal(address: string): { address: string; family: "ipv4" | "ipv6" } | undefined {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIPv4(bare)) return { address: bare, family: "ipv4" };
  if (isIPv6(bare)) return { address: bare, family: "ipv6" };
  return undefined;
}

/** A globally reachable unicast address: not loopback, private, link-local, unique-local, multicast, ... */
export function isPublicAddress(address: string): boolean {
  const ip = literal(address);
  return ip !== undefined && !SPECIAL[ip.family].check(ip.address, ip.family);
}

export function isLoopbackAddress(address: string): boolean {
  const ip = literal(address);
  return ip !== undefined && LOOPBACK.check(ip.address, ip.family);
}
