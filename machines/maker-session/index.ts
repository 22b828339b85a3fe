/** machines/maker-session: a maker's sign-in with an Ethereum wallet (EIP-4361) and the bearer token it answered. */
export { makerSessionMachine } from './session-machine.js';
export type { MakerSessionContext, MakerSessionEvent, MakerSessionInput } from './session-machine.js';
