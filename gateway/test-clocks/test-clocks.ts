/**
 * The sandbox test clocks of a merchant (docs/test-clocks.md): each is a `test-clock`
 * actor; this reads them from their views and asks them to change. A live key reaches
 * none of it, and another merchant's clock, or a deleted one, is not found.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { ViewFilter } from '../../actors/runtime/view-collection.js';
import { testClockKind, type TestClockView } from '../../actors/kinds/test-clock-kind.js';
import { MAX_ADVANCE_MS } from '../../machines/test-clock/index.js';
import { ApiError, fieldError } from '../envelope.js';
import { newId } from '../ids.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { newestPage, TOTAL_CAP } from '../paged-views.js';
import type { CreateTestClockBody } from './test-clock-schemas.js';

type TestClockResource = TestClockView['clock'];

export class TestClocks {
  constructor(
    private readonly system: ActorSystem,
    private readonly now: () => string,
  ) {}

  async create(account: MerchantAccount, body: CreateTestClockBody): Promise<TestClockResource> {
    sandboxOnly(account);
    const now = this.now();
    const frozenTime = body.frozenTime === undefined ? now : new Date(body.frozenTime).toISOString();
    if (Math.abs(Date.parse(frozenTime) - Date.parse(now)) > MAX_ADVANCE_MS) throw fieldError('frozenTime', 'must be within two years of now');
    const id = newId('clk');
    const created = await this.system.ask(testClockKind, id, {
      type: 'CREATE',
      id,
      merchantId: account.merchantId,
      name: body.name ?? null,
      frozenTime,
      at: now,
    });
    return created.clock;
  }

  async list(account: MerchantAccount, paging: { page: number; limit: number }) {
    sandboxOnly(account);
    const { docs, ...total } = await newestPage(this.system.views(testClockKind), ownClocks(account), paging, { view: 1 }, TOTAL_CAP);
    return { testClocks: docs.map((doc) => doc.view.clock), ...total, ...paging };
  }

  async read(account: MerchantAccount, id: string): Promise<TestClockResource> {
    sandboxOnly(account);
    return (await this.#own(account, id)).clock;
  }

  async advance(account: MerchantAccount, id: string, frozenTime: string): Promise<TestClockResource> {
    sandboxOnly(account);
    await this.#own(account, id);
    const advanced = await this.system.ask(testClockKind, id, { type: 'ADVANCE', frozenTime: new Date(frozenTime).toISOString(), at: this.now() });
    return advanced.clock;
  }

  async remove(account: MerchantAccount, id: string): Promise<{ id: string; deleted: true }> {
    sandboxOnly(account);
    await this.#own(account, id);
    await this.system.ask(testClockKind, id, { type: 'DELETE', at: this.now() });
    return { id, deleted: true };
  }

  async #own(account: MerchantAccount, id: string): Promise<TestClockView> {
    const doc = await this.system.views(testClockKind).findOne({ _id: id, ...ownClocks(account) }, { projection: { view: 1 } });
    if (!doc) throw new ApiError(404, 'Test clock not found', 'TEST_CLOCK_NOT_FOUND');
    return doc.view;
  }
}

/** A live key never reaches a test clock: its orders and payments run on real time only. */
function sandboxOnly(account: MerchantAccount): void {
  if (account.environment !== 'SANDBOX') throw new ApiError(403, 'Test clocks are for sandbox keys only', 'TEST_CLOCK_SANDBOX_ONLY');
}

function ownClocks(account: MerchantAccount): ViewFilter<TestClockView> {
  return { 'view.merchantId': account.merchantId, 'view.status': { $ne: 'DELETED' } };
}
