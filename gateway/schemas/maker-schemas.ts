/**
 * Document 3's maker endpoints: the bodies of validate and create in the legacy (v1) and
 * new (v2) formats, the read's path, and the maker record. Every depositData schema is
 * built from the processor table in machines/maker/deposit-data.ts, so the rules a create
 * enforces, the ones validate judges by and the ones the OpenAPI document shows are one.
 */
import { z } from 'zod';
import {
  LEGACY_PROCESSOR_NAMES,
  LEGACY_TELEGRAM_FIELD,
  PAYEE_IDENTIFIERS,
  PROCESSOR_NAMES,
  PROCESSORS,
  TELEGRAM_USERNAME,
  type DepositDataShape,
  type PayeeIdentifierKind,
  type ProcessorName,
} from '../../machines/maker/index.js';
import { nonEmpty } from './non-empty.js';
import { freeFormObject } from './free-form.js';

/** v1: the legacy depositData format; v2: the new one. */
export type MakerApiVersion = 'v1' | 'v2';

const NAMES: Record<MakerApiVersion, readonly ProcessorName[]> = { v1: LEGACY_PROCESSOR_NAMES, v2: PROCESSOR_NAMES };

/** Why `name` is not a processor of `version`; the v1 paths send Alipay makers to the v2 ones. */
export function processorNameRule(version: MakerApiVersion, name: unknown): string {
  if (version === 'v1' && typeof name === 'string' && PROCESSOR_NAMES.includes(name as ProcessorName)) {
    return `${name} has no legacy depositData format: use POST /v2/makers/validate and POST /v2/makers/create`;
  }
  return `must be one of ${NAMES[version].join(', ')}`;
}

function identifier(kind: PayeeIdentifierKind) {
  const { pattern, rule, example } = PAYEE_IDENTIFIERS[kind];
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .regex(pattern, `must be ${rule}`)
    .meta({ description: `${rule[0]!.toUpperCase()}${rule.slice(1)}`, example });
}

const telegramUsername = z
  .string()
  .regex(TELEGRAM_USERNAME.pattern, `must be ${TELEGRAM_USERNAME.rule}`)
  .nullable()
  .optional()
  .meta({ description: 'The maker’s Telegram username, kept without the @; null or absent for none', example: 'makermary' });

function depositDataSchema(processor: ProcessorName, shape: DepositDataShape, legacy: boolean) {
  const fields: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(shape.fields))
    fields[name] = field.required ? identifier(field.identifier) : identifier(field.identifier).optional();
  if (legacy) fields[LEGACY_TELEGRAM_FIELD] = telegramUsername;
  const pair = shape.exactlyOneOf;
  const description = `The ${processor} payee${pair ? `: exactly one of ${pair[0]} and ${pair[1]}` : ''}`;
  const schema = z.object(fields).strict();
  if (!pair) return schema.meta({ description });
  return schema
    .superRefine((value, ctx) => {
      const sent = pair.filter((name) => value[name] !== undefined);
      if (sent.length !== 1) ctx.addIssue({ code: 'custom', message: `must hold exactly one of ${pair[0]} and ${pair[1]}` });
    })
    .meta({ description });
}

/** Each processor's depositData, by format: what validate judges and create requires. */
export const depositDataSchemas: Record<MakerApiVersion, Partial<Record<ProcessorName, z.ZodType<Record<string, unknown>>>>> = {
  v1: Object.fromEntries(LEGACY_PROCESSOR_NAMES.map((name) => [name, depositDataSchema(name, PROCESSORS[name].legacy!, true)])),
  v2: Object.fromEntries(PROCESSOR_NAMES.map((name) => [name, depositDataSchema(name, PROCESSORS[name].current, false)])),
};

/** What a v2 body says about the maker beside the payee. */
const makerDetails = {
  telegramUsername,
  isBusiness: z.boolean().optional().meta({ description: 'Whether the payee is a business account; absent, true for paypal-business and false elsewhere' }),
  metadata: freeFormObject.nullable().optional().meta({ description: 'A free-form JSON object of the maker’s, kept on the record; null or absent for none' }),
};

function processorName(version: MakerApiVersion) {
  return z
    .enum(NAMES[version] as [ProcessorName, ...ProcessorName[]], { error: (issue) => processorNameRule(version, issue.input) })
    .meta({ description: 'The payment platform the payee is on' });
}

const anyDepositData = z
  .record(z.string(), z.unknown())
  .meta({ description: 'The payee on the processor; its fields per processor are those of the create body' });

/** Validate's bodies: the request's form is held strictly (a 400); depositData is what the boolean judges. */
export const validateMakerBodyV1 = z
  .object({ processorName: processorName('v1'), depositData: anyDepositData })
  .strict()
  .meta({ id: 'ValidateMakerRequestV1' });
export const validateMakerBodyV2 = z
  .object({ processorName: processorName('v2'), depositData: anyDepositData, ...makerDetails })
  .strict()
  .meta({ id: 'ValidateMakerRequestV2' });

function createBody(version: MakerApiVersion) {
  const variants = NAMES[version].map((name) =>
    z
      .object({
        processorName: z.literal(name).meta({ description: 'The payment platform the payee is on' }),
        depositData: depositDataSchemas[version][name]!,
        ...(version === 'v2' ? makerDetails : {}),
      })
      .strict(),
  );
  return z.discriminatedUnion('processorName', nonEmpty(variants, `${version} create body variants`), {
    error: (issue) =>
      issue.code === 'invalid_union' && issue.path?.[0] === 'processorName'
        ? processorNameRule(version, (issue.input as { processorName?: unknown })?.processorName)
        : undefined,
  });
}

export const createMakerBodyV1 = createBody('v1').meta({ id: 'CreateMakerRequestV1' });
export const createMakerBodyV2 = createBody('v2').meta({ id: 'CreateMakerRequestV2' });

/** Path parameters of the read; the processor's own payee rules are applied in the handler. */
export const makerPath = z.object({
  processorName: z
    .string()
    .regex(new RegExp(`^(${PROCESSOR_NAMES.join('|')})$`), `must be one of ${PROCESSOR_NAMES.join(', ')}`)
    .meta({ description: 'The payment platform the payee is on' }),
  payeeDetails: z
    .string()
    .regex(/^[A-Za-z0-9._@+$-]{1,254}$/, 'must be a hashedOnchainId or a payee id')
    .meta({
      description:
        'The record’s hashedOnchainId (0x and 64 hex digits, any case), or the payee id in a spelling the processor takes (a cashtag with or without its $, an e-mail in any case, …)',
      example: '0x2c4a3d4f3c4a5e1a0f5e8b0a4e1c4d2b9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    }),
});

export const makerRecord = z
  .object({
    id: z.number().int().min(1).meta({ description: 'The record’s number: unique, and fixed once given' }),
    processorName: z.string().meta({ description: 'The processor the payee was registered on', example: 'venmo' }),
    offchainId: z.string().meta({ description: 'The normalised payee id, as payments on the platform name the payee', example: '3141592653' }),
    telegramUsername: z.string().nullable().meta({ description: 'The maker’s Telegram username, without the @; null for none' }),
    hashedOnchainId: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/)
      .meta({ description: 'keccak256 of offchainId: the payeeDetails a deposit paid to this payee holds' }),
    isBusiness: z.boolean().meta({ description: 'The payee is a business account' }),
    revoked: z.boolean().meta({ description: 'Always false: no endpoint revokes a record yet' }),
    metadata: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The maker’s free-form metadata (v2); null when none' }),
    createdAt: z.iso.datetime().meta({ description: 'When the record was made', example: '2026-11-23T12:00:00.000Z' }),
  })
  .meta({ id: 'MakerRecord' });

export const makerValidity = z.boolean().meta({ description: 'true when depositData is a valid payee of the processor in this format (create would take it)' });
