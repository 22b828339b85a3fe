/**
 * Document 3's maker records (no authentication, as the document declares for the read
 * and shows none for the rest): validate and create in the legacy format under /v1 and
 * the new one under /v2, and the read by processor and payee (docs/makers.md). The
 * bodies are documented but read by maker-requests.ts, which names a depositData
 * problem by its own field.
 */
import type { ProcessorName } from '../../machines/maker/index.js';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import {
  createMakerBodyV1,
  createMakerBodyV2,
  type MakerApiVersion,
  makerPath,
  makerRecord,
  makerValidity,
  validateMakerBodyV1,
  validateMakerBodyV2,
} from '../schemas/maker-schemas.js';
import type { MakerRegistry } from './maker-registry.js';
import { readCreateMaker, validateMaker } from './maker-requests.js';

export interface MakerRecordDependencies {
  registry: MakerRegistry;
}

export function makerRecordOperations(): Operation<MakerRecordDependencies>[] {
  return [validateOperation('v1'), createOperation('v1'), validateOperation('v2'), createOperation('v2'), readOperation];
}

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

function validateOperation(version: MakerApiVersion) {
  const format = FORMATS[version];
  return defineOperation({
    method: 'post',
    path: `/${version}/makers/validate`,
    operationId: `validateMaker${version.toUpperCase()}`,
    tags,
    summary: `Whether depositData is a valid payee (${format.name} format)`,
    description: `${format.body}\n\ntrue when create would take the body; false when depositData is an object but not a valid payee of the processor (the message says why). The rest of the body (an unknown field, an unknown processorName) is a 400. Nothing is stored.`,
    guard: 'none',
    documented: { body: format.validateBody },
    answers: standardAnswers(
      {
        '200': success(200, makerValidity, 'Whether depositData is valid'),
        '400': invalid('the body: an unknown or missing field, or a processorName this format does not take'),
      },
      { body: true },
    ),
    handle: () => (ctx) => {
      const { valid, message } = validateMaker(version, ctx.request.body);
      reply(ctx, 200, message, makerValidity, valid);
    },
  });
}

function createOperation(version: MakerApiVersion) {
  const format = FORMATS[version];
  return defineOperation({
    method: 'post',
    path: `/${version}/makers/create`,
    operationId: `createMaker${version.toUpperCase()}`,
    tags,
    summary: `Register a payee as a maker record (${format.name} format)`,
    description: `${format.body}\n\nOne record per payee and processor: creating it again answers the same record (same id) when telegramUsername, isBusiness and metadata agree. The payee is registered in the payee directory under the processor’s payment methods (each Zelle bank for \`zelle\`), so deposits paid to it can be quoted.`,
    guard: 'none',
    documented: { body: format.createBody },
    answers: standardAnswers(
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
    handle: (deps: MakerRecordDependencies) => async (ctx) => {
      reply(ctx, 200, 'Maker record', makerRecord, await deps.registry.create(readCreateMaker(version, ctx.request.body)));
    },
  });
}

const readOperation = defineOperation({
  method: 'get',
  path: '/v1/makers/:processorName/:payeeDetails',
  operationId: 'getMaker',
  tags,
  summary: 'A maker record by processor and payee',
  description:
    'payeeDetails is the record’s hashedOnchainId or the payee id itself. A Zelle bank (zelle-chase, zelle-bofa, zelle-citi) also finds a payee registered on `zelle`, whose record then says `zelle`. Records made through either format are read here.',
  guard: 'none',
  request: { path: makerPath },
  answers: standardAnswers({
    '200': success(200, makerRecord, 'The maker record'),
    '400': invalid('processorName is not a processor, or payeeDetails is neither a hash nor a payee id of the processor'),
    '404': failure(404, [{ code: 'NOT_FOUND', when: 'no maker record for that payee on that processor' }]),
  }),
  handle:
    (deps: MakerRecordDependencies) =>
    async (ctx, { path }) => {
      // makerPath holds processorName to the processors' names.
      reply(ctx, 200, 'Maker record', makerRecord, await deps.registry.read(path.processorName as ProcessorName, path.payeeDetails));
    },
});
