/**
 * Makers' referrals (docs/maker-referrals.md). Reads come from the actors' views; every
 * change is a message to an actor. A code is its own actor (id: the code in lower case),
 * which is what keeps it one maker's under any number of concurrent claims; changing
 * codes is a claim of the new one under the wallet's next claim number, then the release
 * of whatever the wallet holds under lower numbers, so concurrent changes by one wallet
 * still leave it exactly one code: the most recent claim's.
 */
import { CommandRejectedError, UnknownActorError } from '../../actors/errors.js';
import { makerReferralKind, referralCodeKind, type ReferralCodeView } from '../../actors/makers/index.js';
import type { AnyActorKind, CommandOf, ReplyOf } from '../../actors/runtime/actor-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { referralCodeKey, type MakerReferralEvent, type ReferralCodeEvent } from '../../machines/referral/index.js';
import { ApiError } from '../envelope.js';
import type { MakerWallet } from '../middleware/bearer-auth.js';

const codeTaken = () => new ApiError(409, 'Another maker holds this code (letter case aside)', 'REFERRAL_CODE_TAKEN');

export class MakerReferrals {
  constructor(private readonly deps: { system: ActorSystem; now(): string }) {}

  async read(wallet: MakerWallet) {
    const owner = wallet.address.toLowerCase();
    const [held, record, redemptions] = await Promise.all([
      this.#held(owner),
      this.deps.system.views(makerReferralKind).findOne({ _id: owner }, { projection: { view: 1 } }),
      this.deps.system.views(makerReferralKind).count({ 'view.referrer': owner }),
    ]);
    const referredBy = record?.view.referredBy ?? null;
    return {
      walletAddress: wallet.address,
      code: held[0]?.code ?? null,
      redemptions,
      referredBy: referredBy && { code: referredBy.code, redeemedAt: referredBy.at },
    };
  }

  async setCode(wallet: MakerWallet, code: string) {
    const owner = wallet.address.toLowerCase();
    const key = referralCodeKey(code);
    const current = (await this.deps.system.views(referralCodeKind).findOne({ _id: key }, { projection: { view: 1 } }))?.view;
    // The common refusal without a write; the code's actor refuses the same under a race.
    if (current?.held && current.owner !== owner) throw codeTaken();
    const at = this.deps.now();
    const { claims } = await this.#askRecord(owner, { type: 'NEXT_CLAIM', at });
    const claim = { code, owner, claim: claims, at };
    try {
      await this.#askCode(key, { type: 'CLAIM', ...claim }, { type: 'OPEN', ...claim });
    } catch (error) {
      if (error instanceof CommandRejectedError && error.code === 'REFERRAL_CODE_TAKEN') throw codeTaken();
      throw error;
    }
    await this.#releaseOlder(owner, at);
    return this.read(wallet);
  }

  async redeem(wallet: MakerWallet, code: string) {
    const owner = wallet.address.toLowerCase();
    const doc = await this.deps.system.views(referralCodeKind).findOne({ _id: referralCodeKey(code), 'view.held': true }, { projection: { view: 1 } });
    if (!doc) throw new ApiError(404, 'No maker holds this referral code', 'REFERRAL_CODE_NOT_FOUND');
    const holder = doc.view;
    if (holder.owner === owner) throw new ApiError(400, 'A wallet cannot redeem its own referral code', 'REFERRAL_OWN_CODE');
    await this.#askRecord(owner, { type: 'REDEEM', referrer: holder.owner, code: holder.code, at: this.deps.now() });
    return this.read(wallet);
  }

  /** The wallet's held codes, most recent claim first: the first is its code. */
  async #held(owner: string): Promise<ReferralCodeView[]> {
    const docs = await this.deps.system.views(referralCodeKind).find({ 'view.owner': owner, 'view.held': true }, { projection: { view: 1 } });
    return docs.map((doc) => doc.view).sort((a, b) => b.claim - a.claim);
  }

  /** Releases every code the wallet holds below its most recent claim: what a change that lost a race, or failed half-way, left held. */
  async #releaseOlder(owner: string, at: string): Promise<void> {
    const [newest, ...older] = await this.#held(owner);
    for (const code of older) {
      const release: ReferralCodeEvent = { type: 'RELEASE', owner, below: newest!.claim, at };
      await this.deps.system.ask(referralCodeKind, referralCodeKey(code.code), release);
    }
  }

  /** The wallet's referral record, opened by the first message that needs it. */
  #askRecord(owner: string, event: MakerReferralEvent): Promise<ReplyOf<typeof makerReferralKind>> {
    return askOpening(this.deps.system, makerReferralKind, owner, event, { type: 'OPEN', at: this.deps.now() });
  }

  /** A code's actor: a claim of a code nobody ever held opens it held. */
  async #askCode(key: string, claim: ReferralCodeEvent, open: ReferralCodeEvent): Promise<void> {
    try {
      await this.deps.system.ask(referralCodeKind, key, claim);
      return;
    } catch (error) {
      if (!(error instanceof UnknownActorError)) throw error;
    }
    try {
      await this.deps.system.ask(referralCodeKind, key, open);
    } catch (error) {
      // Another claim opened it first: claim it as it now is.
      if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
      await this.deps.system.ask(referralCodeKind, key, claim);
    }
  }
}

/** Sends `event`; an actor not there yet is opened first (or found opened by a concurrent request), then sent it again. */
async function askOpening<K extends AnyActorKind>(system: ActorSystem, kind: K, id: string, command: CommandOf<K>, open: CommandOf<K>): Promise<ReplyOf<K>> {
  try {
    return await system.ask(kind, id, command);
  } catch (error) {
    if (!(error instanceof UnknownActorError)) throw error;
  }
  try {
    await system.ask(kind, id, open);
  } catch (error) {
    if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
  }
  return system.ask(kind, id, command);
}
