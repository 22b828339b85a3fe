/** Transports: how a message reaches the node serving its actor (embedded, or NATS with shard leases). */
export { RemoteError, TransportUnavailableError } from './transport.js';
export type { MessageHost, Transport, TransportStatus } from './transport.js';
export { EmbeddedTransport } from './embedded-transport.js';
export { NatsTransport, type NatsTransportOptions } from './nats-transport.js';
