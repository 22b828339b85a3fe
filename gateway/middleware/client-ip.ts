/**
 * Decides the client address every later decision uses (rate limit, API key
 * allowlist). The socket peer is the client unless it is a trusted proxy; then
 * X-Forwarded-For is walked from the right, because each trusted proxy appends the
 * peer it saw and only entries added by trusted hops can be believed. Whatever a
 * client writes itself sits left of the first untrusted hop and is never read.
 */
import type { Middleware } from 'koa';
import type { Socket } from 'node:net';
import { inCidrs, parseCidrList, parseIp, type Cidr, type IpAddress } from '../auth/cidr.js';
import type { RequestState } from './request-context.js';

export interface ClientIpState extends RequestState {
  /** Canonical form: IPv4 dotted (IPv4-mapped IPv6 unwrapped), IPv6 compressed lower-case. */
  clientIp: string;
}

/** Throws InvalidCidrError at start for a bad entry, so a typo never trusts the wrong hop. */
export function clientIp(trustedProxies: readonly string[]): Middleware<ClientIpState> {
  const trusted = parseCidrList(trustedProxies);
  return (ctx, next) => {
    const peer = peerOf(ctx.req.socket);
    ctx.state.clientIp =
      peer.address && inCidrs(peer.address, trusted) ? throughTrustedHops(peer.address, ctx.get('x-forwarded-for'), trusted).toString() : peer.text;
    return next();
  };
}

interface Peer {
  address: IpAddress | undefined;
  /** Canonical when it parses, as the socket gave it otherwise. */
  text: string;
}

/** Parsed once per connection: a keep-alive connection carries many requests from the same peer. */
const peers = new WeakMap<Socket, Peer>();

function peerOf(socket: Socket): Peer {
  let peer = peers.get(socket);
  if (!peer) {
    // Undefined only once the socket is gone; the request is then answered to no one.
    const text = socket.remoteAddress ?? '';
    const address = parseIp(text);
    peer = { address, text: address?.toString() ?? text };
    peers.set(socket, peer);
  }
  return peer;
}

function throughTrustedHops(peer: IpAddress, forwardedFor: string, trusted: readonly Cidr[]): IpAddress {
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  let client = peer;
  while (inCidrs(client, trusted)) {
    const hop = hops.pop();
    const address = hop === undefined ? undefined : parseIp(hop);
    // Out of hops, or a hop no proxy would write: the last vouched-for address is all we know.
    if (!address) return client;
    client = address;
  }
  return client;
}
