/**
 * IP addresses and CIDR ranges for API key allowlists and trusted proxies.
 *
 * Parsing is stricter than ipaddr.js alone: IPv4 must be four-part decimal, because
 * ipaddr.js also reads `10` as 0.0.0.10 and `010.0.0.1` as octal 8.0.0.1, and an
 * allowlist must never mean something other than what its owner typed. An
 * IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is the IPv4 address it carries, for
 * clients and for ranges alike, so a dual-stack socket cannot slip past an IPv4 rule.
 */
import ipaddr from 'ipaddr.js';
import { PlatformError } from '../../actors/errors/platform-error.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [IpAddress, number];

export class InvalidCidrError extends PlatformError {
  override readonly name = 'InvalidCidrError';
  readonly code = 'INVALID_CIDR';
  constructor(readonly entries: string[]) {
    super(`not an IPv4 or IPv6 address or CIDR: ${entries.join(', ')}`);
  }
}

/** The address, with IPv4-mapped IPv6 unwrapped to IPv4; undefined when it is not one. */
export function parseIp(text: string): IpAddress | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.IPv6.parse(text);
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** A CIDR or a bare address (a /32 or /128); undefined when it is neither. */
export function parseCidr(entry: string): Cidr | undefined {
  const text = entry.trim();
  const withPrefix = text.includes('/') ? text : `${text}/${text.includes(':') ? 128 : 32}`;
  if (ipaddr.IPv4.isValidCIDRFourPartDecimal(withPrefix)) return ipaddr.IPv4.parseCIDR(withPrefix);
  if (!ipaddr.IPv6.isValidCIDR(withPrefix)) return undefined;
  const [address, bits] = ipaddr.IPv6.parseCIDR(withPrefix);
  // A zone names an interface of one host; it means nothing in a shared list.
  if (address.zoneId !== undefined) return undefined;
  if (address.isIPv4MappedAddress() && bits >= 96) return [address.toIPv4Address(), bits - 96];
  return [address, bits];
}

/** Parses every entry, or throws one InvalidCidrError naming all the bad ones. */
export function parseCidrList(entries: readonly string[]): Cidr[] {
  const cidrs: Cidr[] = [];
  const bad: string[] = [];
  for (const entry of entries) {
    const cidr = parseCidr(entry);
    if (cidr) cidrs.push(cidr);
    else bad.push(entry);
  }
  if (bad.length > 0) throw new InvalidCidrError(bad);
  return cidrs;
}

/**
 * The stored form of an allowlist: network addresses (`10.0.0.7/8` → `10.0.0.0/8`),
 * lower-case compressed IPv6, bare addresses as /32 or /128, duplicates dropped.
 */
export function canonicalCidrList(entries: readonly string[]): string[] {
  return [...new Set(parseCidrList(entries).map(formatCidr))];
}

export function inCidrs(address: IpAddress, cidrs: readonly Cidr[]): boolean {
  return cidrs.some((cidr) => cidr[0].kind() === address.kind() && address.match(cidr));
}

/**
 * Whether a client may use a key with this allowlist. An empty list means no
 * allowlist; an entry that does not parse (a corrupt record) matches nothing, so a
 * damaged list fails closed.
 */
export function ipAllowed(ip: string, canonicalList: readonly string[]): boolean {
  if (canonicalList.length === 0) return true;
  const address = parseIp(ip);
  if (!address) return false;
  const cidrs = canonicalList.map((entry) => parseCidr(entry)).filter((cidr) => cidr !== undefined);
  return inCidrs(address, cidrs);
}

function formatCidr([address, bits]: Cidr): string {
  const text = `${address.toString()}/${bits}`;
  const network = address instanceof ipaddr.IPv4 ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
  return `${network.toString()}/${bits}`;
}
