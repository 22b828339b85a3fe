/** The routes of a list of operations, in list order, on one exact-path router (routing.ts). */
import type Router from '@koa/router';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';
import type { Mounting, Operation } from './operation.js';

export function operationRouter<D>(operations: readonly Operation<D>[], deps: D, mounting: Mounting): Router<GatewayState> {
  const router = exactRouter();
  addOperations(router, operations, deps, mounting);
  return router;
}

/** Adds the operations' routes to `router`, after those it has: for an area whose operations depend on what the node is given. */
export function addOperations<D>(router: Router<GatewayState>, operations: readonly Operation<D>[], deps: D, mounting: Mounting): void {
  for (const operation of operations) {
    const { method, path } = operation.spec;
    router[method](path, ...operation.middleware(deps, mounting));
  }
}
