/**
 * The processors a maker can register a payee on, and the depositData each takes in
 * document 3's two formats: `legacy` (the v1 paths: platform-named fields, the maker's
 * Telegram username among them) and `current` (the v2 paths: neutral field names, only
 * the payee; the maker's own details sit beside depositData). Alipay came after the
 * legacy format and has none.
 *
 * A processor is a payment platform as deposits name their payment methods (keccak256 of
 * the id), plus `zelle`: a Zelle token is the same whichever bank the customer pays from,
 * so a `zelle` maker is registered under each Zelle bank's method.
 *
 * The gateway builds its request schemas from this table, and this module turns a valid
 * depositData into the normalised payee id (the record's offchainId).
 */
import { ZELLE_BANKS } from '../rails.js';
import { PAYEE_IDENTIFIERS, payeeIdAs, type PayeeIdentifierKind } from './payee-ids.js';

export const PROCESSOR_NAMES = [
  'venmo',
  'cashapp',
  'chime',
  'revolut',
  'wise',
  'monzo',
  'paypal',
  'paypal-business',
  'zelle',
  'zelle-chase',
  'zelle-bofa',
  'zelle-citi',
  'alipay',
] as const;
export type ProcessorName = (typeof PROCESSOR_NAMES)[number];

export type DepositDataFormat = 'legacy' | 'current';

export interface DepositDataField {
  identifier: PayeeIdentifierKind;
  /** Absent fields of a one-of pair are optional here; the pair's rule says which is needed. */
  required: boolean;
}

export interface DepositDataShape {
  /** The payee's fields, by name. */
  fields: Readonly<Record<string, DepositDataField>>;
  /** Two fields of which exactly one must be sent (an e-mail or a phone for Zelle). */
  exactlyOneOf?: readonly [string, string];
  /** The normalised payee id of depositData whose fields are valid. */
  payeeId(fields: Readonly<Record<string, string>>): string;
  /** Names an older client may still send, with what replaced them (an unknown field's message). */
  replaced?: Readonly<Record<string, string>>;
}

export interface Processor {
  name: ProcessorName;
  /** The payment methods (deposit platforms) the payee is registered under. */
  paymentMethods: readonly string[];
  /** A business account by the platform's own terms: the record's isBusiness unless the maker says otherwise. */
  business: boolean;
  /** null: no legacy format (the v1 paths refuse the processor). */
  legacy: DepositDataShape | null;
  current: DepositDataShape;
  /** What a read may name the payee by, beside its hash: any spelling of these. */
  offchainIds: readonly PayeeIdentifierKind[];
}

const normalised = (kind: PayeeIdentifierKind, raw: string) => PAYEE_IDENTIFIERS[kind].normalise(raw);

/** A shape whose payee is one field. */
function single(field: string, identifier: PayeeIdentifierKind, replaced?: Record<string, string>): DepositDataShape {
  return {
    fields: { [field]: { identifier, required: true } },
    payeeId: (fields) => normalised(identifier, fields[field]!),
    ...(replaced ? { replaced } : {}),
  };
}

/** A Zelle token: an e-mail or a US phone number, exactly one. */
function zelleToken(email: string, phone: string): DepositDataShape {
  return {
    fields: { [email]: { identifier: 'email', required: false }, [phone]: { identifier: 'usPhone', required: false } },
    exactlyOneOf: [email, phone],
    payeeId: (fields) => (fields[email] !== undefined ? normalised('email', fields[email]) : normalised('usPhone', fields[phone]!)),
  };
}

function monzo(sortCode: string, accountNumber: string, replaced?: Record<string, string>): DepositDataShape {
  return {
    fields: { [sortCode]: { identifier: 'sortCode', required: true }, [accountNumber]: { identifier: 'ukAccountNumber', required: true } },
    payeeId: (fields) => normalised('sortCode', fields[sortCode]!) + normalised('ukAccountNumber', fields[accountNumber]!),
    ...(replaced ? { replaced } : {}),
  };
}

const zelle = (name: ProcessorName, paymentMethods: readonly string[]): Processor => ({
  name,
  paymentMethods,
  business: false,
  legacy: zelleToken('zelleEmail', 'zellePhone'),
  current: zelleToken('email', 'phone'),
  offchainIds: ['email', 'usPhone'],
});

const paypalLike = (name: ProcessorName, business: boolean): Processor => ({
  name,
  paymentMethods: [name],
  business,
  legacy: single('paypalEmail', 'email'),
  current: single('email', 'email'),
  offchainIds: ['email'],
});

export const PROCESSORS: Readonly<Record<ProcessorName, Processor>> = {
  venmo: {
    name: 'venmo',
    paymentMethods: ['venmo'],
    business: false,
    legacy: single('venmoId', 'venmoUserId', {
      venmoUsername: 'Venmo payments name their receiver by user id, not by username: send venmoId, the digits of your Venmo user id',
    }),
    current: single('userId', 'venmoUserId'),
    offchainIds: ['venmoUserId'],
  },
  cashapp: {
    name: 'cashapp',
    paymentMethods: ['cashapp'],
    business: false,
    legacy: single('cashtag', 'cashtag'),
    current: single('cashtag', 'cashtag'),
    offchainIds: ['cashtag'],
  },
  chime: {
    name: 'chime',
    paymentMethods: ['chime'],
    business: false,
    legacy: single('chimeSign', 'chimeSign'),
    current: single('chimeSign', 'chimeSign'),
    offchainIds: ['chimeSign'],
  },
  revolut: {
    name: 'revolut',
    paymentMethods: ['revolut'],
    business: false,
    legacy: single('revolutUsername', 'revtag'),
    current: single('revtag', 'revtag'),
    offchainIds: ['revtag'],
  },
  wise: {
    name: 'wise',
    paymentMethods: ['wise'],
    business: false,
    legacy: single('wiseProfileId', 'wiseProfileId', {
      wisetag: 'Wise payments name their receiver by profile id, not by Wisetag: send wiseProfileId, the digits of your Wise profile id',
    }),
    current: single('profileId', 'wiseProfileId'),
    offchainIds: ['wiseProfileId'],
  },
  monzo: {
    name: 'monzo',
    paymentMethods: ['monzo'],
    business: false,
    legacy: monzo('monzoSortCode', 'monzoAccountNumber', {
      monzoMeUsername:
        'Monzo payments name their receiver by sort code and account number, not by monzo.me username: send monzoSortCode and monzoAccountNumber',
    }),
    current: monzo('sortCode', 'accountNumber'),
    offchainIds: ['monzoAccount'],
  },
  paypal: paypalLike('paypal', false),
  'paypal-business': paypalLike('paypal-business', true),
  zelle: zelle('zelle', ZELLE_BANKS),
  'zelle-chase': zelle('zelle-chase', ['zelle-chase']),
  'zelle-bofa': zelle('zelle-bofa', ['zelle-bofa']),
  'zelle-citi': zelle('zelle-citi', ['zelle-citi']),
  alipay: {
    name: 'alipay',
    paymentMethods: ['alipay'],
    business: false,
    legacy: null,
    current: single('userId', 'alipayUserId'),
    offchainIds: ['alipayUserId'],
  },
};

/** The processors the legacy (v1) format serves. */
export const LEGACY_PROCESSOR_NAMES = PROCESSOR_NAMES.filter((name) => PROCESSORS[name].legacy !== null);

/** The legacy format's one maker detail inside depositData. */
export const LEGACY_TELEGRAM_FIELD = 'telegramUsername';

/**
 * The payee a read names on `processor`: its normalised id when `raw` spells one of the
 * processor's payee ids, else null. (A hash is told apart before this is asked.)
 */
export function offchainIdOf(processor: ProcessorName, raw: string): string | null {
  for (const kind of PROCESSORS[processor].offchainIds) {
    const id = payeeIdAs(kind, raw);
    if (id !== null) return id;
  }
  return null;
}

/**
 * A Zelle bank's reads also find the payee registered on `zelle` (every bank), since that
 * maker is paid through the bank's method too. The order is the order records are looked for in.
 */
export function processorsReadFor(processor: ProcessorName): ProcessorName[] {
  return (ZELLE_BANKS as readonly string[]).includes(processor) ? [processor, 'zelle'] : [processor];
}
