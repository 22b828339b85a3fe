/**
 * Which webhook destinations we may POST to.
 *
 * A merchant chooses the URL, so in live it must not let them aim our node at
 * itself, its network or a cloud metadata service. The URL is checked when it is
 * registered and again before every attempt; names are judged by what they resolve
 * to, inside the socket's own `lookup`, so the connection goes to exactly the
 * addresses that were checked and a rebinding name cannot switch them afterwards.
 */
import dns from 'node:dns';
import type net from 'node:net';
import ipaddr from 'ipaddr.js';
import { PlatformError } from '../errors/platform-error.js';

export interface DestinationPolicy {
  requireHttps: boolean;
  allowPrivate: boolean;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

// Addresses that are public-looking or sit inside a range we refuse anyway; named
// so the refusal says what the merchant was really pointing at.
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OCI, DigitalOcean instance metadata
  '169.254.170.2', // AWS ECS task metadata
  '100.100.100.200', // Alibaba Cloud metadata
  '168.63.129.16', // Azure wire server: a public address only reachable from inside Azure
  'fd00:ec2::254', // AWS instance metadata over IPv6
]);

// Only 2000::/3 is allocated for global unicast; ipaddr.js calls everything it has
// no name for "unicast", including deprecated IPv4-compatible ::a.b.c.d.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

export class ForbiddenDestinationError extends PlatformError {
  override readonly name = 'ForbiddenDestinationError';
  readonly code = 'WEBHOOK_DESTINATION_FORBIDDEN';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(host === address ? `webhook destination ${address} is a ${range} address` : `webhook destination ${host} resolves to ${address}, a ${range} address`);
  }
}

/**
 * The name of the forbidden range the address is in, or null for a public unicast
 * address. Anything that is not a strictly written address is 'invalid', so an
 * unexpected form fails closed.
 */
export function forbiddenRange(ip: string): string | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return forbiddenV4(ipaddr.IPv4.parse(ip));
  if (!ipaddr.IPv6.isValid(ip)) return 'invalid';
  return forbiddenV6(ipaddr.IPv6.parse(ip));
}

function forbiddenV4(address: ipaddr.IPv4): string | null {
  if (METADATA_ADDRESSES.has(address.toString())) return 'metadata';
  const range = address.range();
  return range === 'unicast' ? null : range;
}

function forbiddenV6(address: ipaddr.IPv6): string | null {
  // The zone names a local interface; the address itself is what gets judged.
  const plain = new ipaddr.IPv6(address.parts);
  if (METADATA_ADDRESSES.has(plain.toString())) return 'metadata';
  // These forms deliver to (or are translated into) the IPv4 address they carry.
  if (plain.isIPv4MappedAddress()) return forbiddenV4(plain.toIPv4Address());
  if (plain.match(NAT64_WELL_KNOWN)) return forbiddenV4(embeddedV4(plain.parts[6], plain.parts[7]));
  const range = plain.range();
  if (range === '6to4') return forbiddenV4(embeddedV4(plain.parts[1], plain.parts[2]));
  if (range !== 'unicast') return range;
  return plain.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
}

function embeddedV4(high: number | undefined, low: number | undefined): ipaddr.IPv4 {
  const h = high ?? 0;
  const l = low ?? 0;
  return new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]);
}

/**
 * Syntactic checks of a webhook URL, with a reason a merchant can act on. Literal
 * IP hosts are judged here because Node connects to them without calling `lookup`;
 * names are judged at delivery by guardedLookup.
 */
export function checkWebhookUrl(text: string, policy: DestinationPolicy): UrlCheck {
  if (text.length > MAX_URL_LENGTH) return refuse(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(text)) return refuse('not an absolute URL');
  const url = new URL(text);
  // Normalisation (percent-encoding, IDNA) can lengthen what was typed.
  if (url.href.length > MAX_URL_LENGTH) return refuse(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('the scheme must be https or http');
  if (policy.requireHttps && url.protocol !== 'https:') return refuse('the scheme must be https');
  if (url.username !== '' || url.password !== '') return refuse('the URL must not contain a username or password');
  // `hash` is empty for a bare trailing '#', the serialised form is not.
  if (url.href.includes('#')) return refuse('the URL must not contain a fragment (#)');
  if (url.hostname === '') return refuse('the URL has no host');
  if (url.port !== '' && (Number(url.port) < 1 || Number(url.port) > 65535)) return refuse('the port must be between 1 and 65535');
  if (!policy.allowPrivate) {
    const forbidden = forbiddenHost(url.hostname);
    if (forbidden) return refuse(forbidden);
  }
  return { ok: true, url };
}

function forbiddenHost(hostname: string): string | null {
  // WHATWG URL has already rewritten IPv4 spellings like 2130706433 or 0x7f.1 to
  // dotted decimal and lower-cased names, so these comparisons see the real host.
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.IPv4.isValidFourPartDecimal(literal) || ipaddr.IPv6.isValid(literal)) {
    const range = forbiddenRange(literal);
    return range ? new ForbiddenDestinationError(literal, literal, range).message : null;
  }
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  // RFC 6761: resolvers may answer these with loopback without asking DNS.
  if (name === 'localhost' || name.endsWith('.localhost')) return `webhook destination ${hostname} is a loopback name`;
  return null;
}

function refuse(reason: string): UrlCheck {
  return { ok: false, reason };
}

/**
 * A `lookup` for http(s).request and agents that resolves every address of the
 * name and fails with ForbiddenDestinationError if any is forbidden: refusing when
 * only some are keeps the result independent of which one Node would try first.
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }), []);
      if (!allowPrivate) {
        for (const { address } of addresses) {
          const range = forbiddenRange(address);
          if (range) return callback(new ForbiddenDestinationError(hostname, address, range), []);
        }
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [dns.LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}
