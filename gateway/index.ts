/**
 * gateway/: the Koa edge. It turns REST calls and webhooks into actor messages and
 * answers in the documents' envelope; it reads views from the store but never
 * writes except through an actor.
 */
export { createGateway, type Gateway, type GatewayDependencies } from './app.js';
export { createGatewayServer, listen } from './http-server.js';
export type { GatewayRoute } from './routing.js';
export { ApiError, respond, type Envelope } from './envelope.js';
