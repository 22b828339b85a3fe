/**
 * Payments and accounts written in each platform's own shape, as the simulator serves
 * them: the signs, number types, time formats and status words differ per platform on
 * purpose, so the enclave's readers are exercised on what they will really meet.
 */
import { formatFiat } from '../../machines/money.js';

export type SimPaymentStatus = 'completed' | 'pending' | 'reversed';

export interface SimPayment {
  paymentId: string;
  /** Fiat cents. */
  amount: bigint;
  currency: string;
  /** The recipient as the platform shows it: `$Alice`, an e-mail, `04-00-04 12345678` for Monzo, a profile number for Wise. */
  payee: string;
  timestampMs: number;
  status: SimPaymentStatus;
  /** From the session's account (the default) or to it: every platform writes which, in its own way. */
  direction?: 'outgoing' | 'incoming';
  /** Who sent it, where the platform names the sender (Venmo, Cash App); the session's account by default. */
  payer?: string;
  /** A Venmo story anyone signed in may read, not only its parties. */
  public?: boolean;
  /** What the payer wrote with it, on platforms that show it (Venmo's and Cash App's note, Wise's reference). */
  note?: string;
}

export interface SimAccount {
  id: string;
  username: string;
  /** Cash App cashtag, PayPal e-mail, and the like, where the platform has one. */
  handle?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const pick = (status: SimPaymentStatus, words: [string, string, string]) => words[['completed', 'pending', 'reversed'].indexOf(status)]!;

/** `account` is the session's: the payment's sender unless the payment names another. */
export function renderPayment(platform: string, p: SimPayment, account: SimAccount): unknown {
  const outgoing = (p.direction ?? 'outgoing') === 'outgoing';
  const sign = outgoing ? -1 : 1;
  const cents = Number(p.amount);
  const decimal = formatFiat(p.amount);
  const signed = `${outgoing ? '-' : ''}${decimal}`;
  switch (platform) {
    case 'venmo': {
      const payer = p.payer ?? account.id;
      return {
        data: {
          id: p.paymentId,
          date: iso(p.timestampMs),
          amount: `${outgoing ? '-' : '+'} $${decimal}`,
          status: pick(p.status, ['settled', 'pending', 'cancelled']),
          note: p.note ?? null,
          title: { sender: { id: payer, username: `user-${payer}` }, receiver: { id: p.payee, username: `user-${p.payee}` } },
        },
      };
    }
    case 'cashapp': {
      // For a payment the session received, `payee` is its counterparty: the one who sent it.
      const own = account.handle ?? `$${account.username}`;
      return {
        payment_history_inputs_row: {
          payment: {
            token: p.paymentId,
            state: pick(p.status, ['COMPLETE', 'PENDING', 'REFUNDED']),
            amount: { amount: cents, currency_code: p.currency },
            display_date: p.timestampMs,
            sender: { cashtag: p.payer ?? (outgoing ? own : p.payee) },
            recipient: { cashtag: outgoing ? p.payee : own },
            note: p.note ?? null,
          },
        },
      };
    }
    case 'monzo': {
      const [sortCode, accountNumber] = p.payee.split(' ');
      return {
        transaction: {
          id: p.paymentId,
          amount: sign * cents,
          currency: p.currency,
          created: iso(p.timestampMs),
          settled: p.status === 'completed' ? iso(p.timestampMs + 60_000) : '',
          ...(p.status === 'reversed' ? { decline_reason: 'INSUFFICIENT_FUNDS' } : {}),
          counterparty: { sort_code: sortCode, account_number: accountNumber, name: 'Maker' },
        },
      };
    }
    case 'wise':
      return {
        id: Number(p.paymentId),
        status: pick(p.status, ['outgoing_payment_sent', 'processing', 'funds_refunded']),
        targetValue: Number(decimal),
        targetCurrency: p.currency,
        created: iso(p.timestampMs)
          .replace('T', ' ')
          .replace(/\.\d{3}Z$/, ''),
        // The transfer's recipient: someone else's profile for one the session sent, its own for one it received.
        targetProfileId: Number(outgoing ? p.payee : account.id),
        reference: p.note ?? null,
      };
    case 'revolut':
      return [
        {
          id: p.paymentId,
          state: pick(p.status, ['COMPLETED', 'PENDING', 'REVERTED']),
          amount: sign * cents,
          currency: p.currency,
          createdDate: p.timestampMs,
          recipient: { username: p.payee },
        },
      ];
    case 'chime':
      return {
        transaction: {
          id: p.paymentId,
          status: pick(p.status, ['Completed', 'Pending', 'Cancelled']),
          amount: signed,
          transaction_date: iso(p.timestampMs),
          recipient: { chime_sign: p.payee },
        },
      };
    case 'zelle-chase':
      return {
        paymentDetail: {
          id: p.paymentId,
          status: pick(p.status, ['COMPLETED', 'PENDING', 'CANCELLED']),
          paymentType: outgoing ? 'SEND' : 'RECEIVE',
          amount: Number(decimal),
          recipientToken: p.payee,
          statusDate: iso(p.timestampMs),
        },
      };
    case 'zelle-bofa':
      return {
        transactionDetail: {
          confirmationNumber: p.paymentId,
          status: pick(p.status, ['COMPLETED', 'PENDING', 'CANCELED']),
          transactionType: outgoing ? 'SENT' : 'RECEIVED',
          amount: { value: decimal, currency: p.currency },
          transactionDate: iso(p.timestampMs),
          recipient: { token: p.payee },
        },
      };
    case 'zelle-citi': {
      // Citi writes Eastern time with its offset.
      const eastern = new Date(p.timestampMs - 5 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '-05:00');
      return {
        transfer: {
          referenceNumber: p.paymentId,
          statusDescription: pick(p.status, ['Delivered', 'Pending', 'Cancelled']),
          transferType: outgoing ? 'OUTGOING' : 'INCOMING',
          transferAmount: decimal,
          transferDate: eastern,
          payeeToken: p.payee,
        },
      };
    }
    case 'paypal':
      return {
        data: {
          transactionId: p.paymentId,
          status: pick(p.status, ['COMPLETED', 'PENDING', 'REFUNDED']),
          amount: { value: signed, currencyCode: p.currency },
          transactionTime: iso(p.timestampMs),
          counterparty: { email: p.payee },
        },
      };
    case 'paypal-business':
      // The reporting API answers a search: rows in transaction_details.
      return {
        transaction_details: [
          {
            transaction_info: {
              transaction_id: p.paymentId,
              transaction_status: pick(p.status, ['S', 'P', 'V']),
              transaction_amount: { currency_code: p.currency, value: signed },
              transaction_initiation_date: iso(p.timestampMs),
            },
            payee_info: { email_address: p.payee },
          },
        ],
      };
    default:
      throw new Error(`the simulator has no ${platform}`);
  }
}

export function renderIdentity(platform: string, account: SimAccount): unknown {
  switch (platform) {
    case 'venmo':
      return { data: { account: { id: account.id, username: account.username }, stories: [] } };
    case 'paypal':
      return { data: { userId: account.id, email: account.handle ?? `${account.username}@example.com`, displayName: account.username } };
    case 'wise':
      return { id: Number(account.id), type: 'personal', wisetag: account.handle, details: { firstName: account.username, lastName: 'Maker' } };
    case 'alipay':
      return { stat: 'ok', result: { userId: account.id, logonId: account.handle ?? account.username, nickName: account.username } };
    default:
      throw new Error(`the simulator has no identity page for ${platform}`);
  }
}
