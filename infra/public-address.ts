// Outbound requests to addresses someone else typed (OCPI partners' URLs, ADR 0021): in
// production they may only reach the public internet, never this machine, the private network,
// the cloud's metadata service or a carrier's shared space. The literal host is checked, every
// address its name resolves to is checked, and the connection itself goes through a DNS lookup
// that refuses non-public answers — so a name that resolves to a public address when checked and
// to 127.0.0.1 a moment later (DNS rebinding) still cannot connect there.
import dns from "node:dns";
import net, { BlockList, type LookupFunction } from "node:net";

const NOT_PUBLIC = new BlockList();
// IPv4 (RFC 6890 special-purpose registry): "this network", private, CGNAT, loopback,
// link-local (169.254.169.254: instance metadata), IETF protocol assignments, documentation,
// 6to4 relay, benchmarking, multicast, reserved and broadcast.
for (const [prefix, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC.addSubnet(prefix, bits, "ipv4");
}
// IPv6: unspecified, loopback, IPv4-compatible (::a.b.c.d, deprecated) and IPv4-translated
// (::ffff:0:a.b.c.d), NAT64 and 6to4 and Teredo (they embed IPv4 addresses: refused whole rather
// than decoded), discard, documentation, ORCHID, unique local (fc00::/7), link-local (fe80::/10),
// the old site-local, multicast. IPv4-mapped addresses (::ffff:a.b.c.d) are checked against the
// IPv4 rules by BlockList itself.
for (const [prefix, bits] of [
  ["::", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:10::", 28],
  ["2001:20::", 28],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(prefix, bits, "ipv6");
}
// The public IPv6 internet is global unicast (2000::/3) only: whatever IANA has not allocated
// there, or reserves outside it, is refused without a list. IPv4-mapped addresses are the one
// exception: they are the IPv4 address itself, judged by the IPv4 rules above.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet("::ffff:0:0", 96, "ipv6");

/** An address of the public internet (a literal IPv4 or IPv6 address; anything else is not). */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = net.isIP(bare);
  if (family === 0) return false;
  if (family === 4) return !NOT_PUBLIC.check(bare, "ipv4");
  if (!GLOBAL_UNICAST.check(bare, "ipv6") && !IPV4_MAPPED.check(bare, "ipv6")) return false;
  return !NOT_PUBLIC.check(bare, "ipv6");
}

/** A host that is, or resolves to, an address outside the public internet. */
export class AddressNotPublicError extends Error {
  override name = "AddressNotPublicError";
  constructor(readonly host: string) {
    super(`${host} no es una dirección pública`);
  }
}

type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const resolveAll: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * Throws AddressNotPublicError unless `host` (a URL's hostname: a name or a literal, IPv6 with
 * or without brackets) is public: a literal is checked as it is, a name by every address it
 * resolves to (one private answer is enough to refuse). A name that does not resolve throws
 * the resolver's error.
 */
export async function assertPublicHost(host: string, resolve: Resolve = resolveAll): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (net.isIP(bare)) {
    if (!isPublicAddress(bare)) throw new AddressNotPublicError(host);
    return;
  }
  if (bare === "localhost" || bare.endsWith(".localhost")) throw new AddressNotPublicError(host);
  const addresses = await resolve(bare);
  if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) throw new AddressNotPublicError(host);
}

/**
 * A `lookup` for net/http/https connections that only ever connects to public addresses: the
 * name is resolved, and any non-public answer fails the connection (ECONNREFUSED-like error
 * AddressNotPublicError). Literal IP hosts skip `lookup` in Node: check them with
 * assertPublicHost before connecting.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    const cb = callback as (err: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;
    if (err) return cb(err);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) return cb(new AddressNotPublicError(hostname) as NodeJS.ErrnoException);
    if ((options as dns.LookupOptions).all) return cb(null, addresses);
    return cb(null, addresses[0].address, addresses[0].family);
  });
};
