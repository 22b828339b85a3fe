/** Document 3's maker record operations: validate and create in the legacy (v1) and new (v2) formats, and the read (docs/makers.md). */
import {
  createMakerBodyV1,
  createMakerBodyV2,
  makerPath,
  makerRecord,
  makerValidity,
  validateMakerBodyV1,
  validateMakerBodyV2,
} from '../schemas/maker-schemas.js';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { NO_AUTH } from './security.js';

const tags = ['Makers'];

const FORMATS = {
  v1: {
    name: 'legacy',
    validateBody: validateMakerBodyV1,
    createBody: createMakerBodyV1,
    body: 'depositData in the legacy format: platform-named fields and the maker’s telegramUsername. Alipay has no legacy format: the v1 paths refuse it with a 400 naming the v2 paths.',
  },
  v2: {
    name: 'new',
    validateBody: validateMakerBodyV2,
    createBody: createMakerBodyV2,
    body: 'depositData in the new format: the payee only, in neutral field names; telegramUsername, isBusiness and metadata beside it.',
  },
} as const;

export function makerPaths(): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const [version, format] of Object.entries(FORMATS)) {
    paths[`/${version}/makers/validate`] = {
      post: {
        operationId: `validateMaker${version.toUpperCase()}`,
        tags,
        summary: `Whether depositData is a valid payee (${format.name} format)`,
        description: `${format.body}\n\ntrue when create would take the body; false when depositData is an object but not a valid payee of the processor (the message says why). The rest of the body (an unknown field, an unknown processorName) is a 400. Nothing is stored.`,
        security: NO_AUTH,
        requestBody: { required: true, content: { 'application/json': { schema: format.validateBody } } },
        responses: standardAnswers(
          {
            '200': success(200, makerValidity, 'Whether depositData is valid'),
            '400': invalid('the body: an unknown or missing field, or a processorName this format does not take'),
          },
          { body: true },
        ),
      },
    };
    paths[`/${version}/makers/create`] = {
      post: {
        operationId: `createMaker${version.toUpperCase()}`,
        tags,
        summary: `Register a payee as a maker record (${format.name} format)`,
        description: `${format.body}\n\nOne record per payee and processor: creating it again answers the same record (same id) when telegramUsername, isBusiness and metadata agree. The payee is registered in the payee directory under the processor’s payment methods (each Zelle bank for \`zelle\`), so deposits paid to it can be quoted.`,
        security: NO_AUTH,
        requestBody: { required: true, content: { 'application/json': { schema: format.createBody } } },
        responses: standardAnswers(
          {
            '200': success(200, makerRecord, 'The maker record, new or as first made'),
            '400': invalid('the body: depositData is named field by field'),
            '409': failure(409, [
              {
                code: 'MAKER_EXISTS',
                when: 'the payee has a record on this processor with another telegramUsername, isBusiness or metadata; read it with GET /v1/makers/{processorName}/{payeeDetails}',
              },
            ]),
          },
          { body: true, asksActors: true },
        ),
      },
    };
  }
  paths['/v1/makers/{processorName}/{payeeDetails}'] = {
    get: {
      operationId: 'getMaker',
      tags,
      summary: 'A maker record by processor and payee',
      description:
        'payeeDetails is the record’s hashedOnchainId or the payee id itself. A Zelle bank (zelle-chase, zelle-bofa, zelle-citi) also finds a payee registered on `zelle`, whose record then says `zelle`. Records made through either format are read here.',
      security: NO_AUTH,
      requestParams: { path: makerPath },
      responses: standardAnswers({
        '200': success(200, makerRecord, 'The maker record'),
        '400': invalid('processorName is not a processor, or payeeDetails is neither a hash nor a payee id of the processor'),
        '404': failure(404, [{ code: 'NOT_FOUND', when: 'no maker record for that payee on that processor' }]),
      }),
    },
  };
  return paths;
}
