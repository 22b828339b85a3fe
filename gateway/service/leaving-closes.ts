/**
 * Once the node is leaving the rotation (rotation.ts), every answer asks the client,
 * in practice the load balancer, to close the connection after it: a kept-alive
 * connection reused later would meet a node that has stopped listening.
 */
import type { Middleware } from 'koa';
import type { Rotation } from './rotation.js';

export function leavingCloses(rotation: Rotation): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (rotation.leaving) ctx.set('connection', 'close');
    }
  };
}
