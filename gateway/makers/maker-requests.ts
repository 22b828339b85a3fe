/**
 * Reads the maker endpoints' bodies into what a record is made from. validate holds the
 * body's form strictly (a 400) and answers whether depositData is a valid payee; create
 * requires both. A depositData problem is named by its own field ("venmoId: must be …"),
 * since the validation shape names nested fields by their first segment only.
 */
import type { z } from 'zod';
import { canonicalJson } from '../../machines/canonical-json.js';
import { PROCESSORS, TELEGRAM_USERNAME, type MakerDetails, type ProcessorName } from '../../machines/maker/index.js';
import { ApiError } from '../envelope.js';
import {
  createMakerBodyV1,
  createMakerBodyV2,
  depositDataSchemas,
  validateMakerBodyV1,
  validateMakerBodyV2,
  type MakerApiVersion,
} from '../schemas/maker-schemas.js';
import { parseOrThrow } from '../validation.js';

export interface MakerRequest {
  processor: ProcessorName;
  /** The normalised payee id. */
  offchainId: string;
  details: MakerDetails;
}

export interface Validity {
  valid: boolean;
  /** Why not, for the answer's message; the boolean is what a caller branches on. */
  message: string;
}

export function validateMaker(version: MakerApiVersion, body: unknown): Validity {
  const { processorName, depositData } = parseOrThrow(version === 'v1' ? validateMakerBodyV1 : validateMakerBodyV2, body);
  const parsed = depositDataSchemas[version][processorName]!.safeParse(depositData);
  if (parsed.success) return { valid: true, message: `depositData is a valid ${processorName} payee` };
  return {
    valid: false,
    message: `depositData is not a valid ${processorName} payee: ${depositDataProblems(version, processorName, parsed.error).join('; ')}`,
  };
}

export function readCreateMaker(version: MakerApiVersion, body: unknown): MakerRequest {
  const parsed = (version === 'v1' ? createMakerBodyV1 : createMakerBodyV2).safeParse(body);
  if (!parsed.success) throw invalidCreate(version, body, parsed.error);
  const request = parsed.data as {
    processorName: ProcessorName;
    depositData: Record<string, string | null | undefined>;
    telegramUsername?: string | null;
    isBusiness?: boolean;
    metadata?: Record<string, unknown> | null;
  };
  const processor = PROCESSORS[request.processorName];
  const { telegramUsername: legacyTelegram, ...payee } = request.depositData;
  const shape = version === 'v1' ? processor.legacy! : processor.current;
  const telegram = (version === 'v1' ? legacyTelegram : request.telegramUsername) ?? null;
  return {
    processor: processor.name,
    offchainId: shape.payeeId(Object.fromEntries(Object.entries(payee).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))),
    details: {
      telegramUsername: telegram === null ? null : TELEGRAM_USERNAME.normalise(telegram),
      isBusiness: request.isBusiness ?? processor.business,
      metadataJson: request.metadata === undefined || request.metadata === null ? null : canonicalJson(request.metadata),
    },
  };
}

/** The validation 400 of a create: depositData's problems each named by their field, the rest as zod flattens them. */
function invalidCreate(version: MakerApiVersion, body: unknown, error: z.ZodError): ApiError {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  const processor = (body as { processorName?: unknown } | null)?.processorName;
  const depositData = error.issues.filter((issue) => issue.path[0] === 'depositData');
  if (depositData.length > 0) {
    fieldErrors.depositData = depositDataProblems(version, processor as ProcessorName, {
      issues: depositData.map((issue) => ({ ...issue, path: issue.path.slice(1) })),
    });
  }
  for (const issue of error.issues) {
    if (issue.path[0] === 'depositData') continue;
    if (issue.path.length === 0) formErrors.push(issue.message);
    else (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
  }
  return new ApiError(400, 'Invalid request', undefined, { fieldErrors, formErrors });
}

/** depositData's issues as "field: message"; a field an older client sends says what replaced it. */
function depositDataProblems(version: MakerApiVersion, processor: ProcessorName, error: { issues: readonly z.core.$ZodIssue[] }): string[] {
  const shape = version === 'v1' ? PROCESSORS[processor]?.legacy : PROCESSORS[processor]?.current;
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => `${key}: ${shape?.replaced?.[key] ?? 'is not a field of this processor’s depositData'}`);
    return [issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message];
  });
}
