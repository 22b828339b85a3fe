/** The OpenAPI `paths` of a list of operations, in the form zod-openapi's createDocument takes. */
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import {
  ADMIN_TOKEN,
  API_KEY,
  API_KEY_OR_SESSION,
  DASHBOARD_SESSION,
  CASHOUT_LINK,
  CASHOUT_SIGNED_IN,
  MAKER_TOKEN,
  NO_AUTH,
  ORDER_TOKEN,
} from '../openapi/security.js';
import type { Guard, Operation } from './operation.js';

const SECURITY: Record<Guard, Array<Record<string, string[]>>> = {
  none: NO_AUTH,
  apiKey: API_KEY,
  session: DASHBOARD_SESSION,
  merchant: API_KEY_OR_SESSION,
  adminToken: ADMIN_TOKEN,
  orderToken: ORDER_TOKEN,
  makerToken: MAKER_TOKEN,
  walletProviderSignature: [{ walletProviderSignature: [] }],
  cashoutLink: CASHOUT_LINK,
  cashoutSignedIn: CASHOUT_SIGNED_IN,
};

/** `/api/v1/orders/:orderId` → `/api/v1/orders/{orderId}`. */
export function documentPath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, '{$1}');
}

export function operationPaths(operations: readonly Operation<never>[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const { spec } of operations) {
    const { path, query, header, body } = { ...spec.documented, ...spec.request };
    const requestParams = { ...(path ? { path } : {}), ...(query ? { query } : {}), ...(header ? { header } : {}) };
    const operation: ZodOpenApiOperationObject = {
      operationId: spec.operationId,
      tags: spec.tags,
      summary: spec.summary,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      security: SECURITY[spec.guard],
      ...spec.extensions,
      ...(Object.keys(requestParams).length > 0 ? { requestParams } : {}),
      ...(body
        ? {
            requestBody: {
              required: !spec.optionalBody,
              content: { 'application/json': { schema: body, ...(spec.bodyExample === undefined ? {} : { example: spec.bodyExample }) } },
            },
          }
        : {}),
      responses: spec.answers,
    };
    const key = documentPath(spec.path);
    paths[key] = { ...paths[key], [spec.method]: operation };
  }
  return paths;
}
