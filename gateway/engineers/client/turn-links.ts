/**
 * Who a turn heard from. A tell is delivered with its outbox entry's
 * id as the message id (`<kind>:<id>:<version>:<n>`, actors/runtime/turn.ts), so the
 * receiving turn's message id names its sender; the admin API sends as
 * `admin-api:<request id>`; a timer's turn is `timer:<id>@<due>`. Anything else came
 * from outside the actors (an API call, a consumer of the events).
 */
import type { Turn } from './inspector-types.js';

export type Sender = { actor: { kind: string; id: string } } | { from: 'admin API' | 'timer' | 'outside' };

const TOLD_BY = /^([A-Za-z0-9_-]{1,128}):([A-Za-z0-9_-]{1,128}):\d+:\d+(?::refused)?$/;

export function senderOf(turn: Pick<Turn, 'messageId' | 'timer'>): Sender {
  if (turn.timer !== null) return { from: 'timer' };
  if (turn.messageId.startsWith('admin-api:')) return { from: 'admin API' };
  const told = TOLD_BY.exec(turn.messageId);
  return told ? { actor: { kind: told[1]!, id: told[2]! } } : { from: 'outside' };
}
