/**
 * A payout world for the customer's refusals: the payout providers in memory as in
 * cashout-world.ts, and the customer's checkout served by a gateway of its own over the
 * node's actors, so a test chooses what the node cannot be handed: the NODE_ENV the
 * checkout runs under, a wallet provider that attaches the payout signer (or fails to),
 * and a payee directory that can be out of reach.
 *
 * A node without a chain fails a listing or a send at once. To see one on its way, the
 * store can hold it: the write recording its failure is refused, as an unreachable store
 * refuses it, so the payout stays READY with its listing or send pending and the effect
 * retries under the retry policy, on the test clock; meanwhile the admin API delivers what
 * the chain would (LISTED, a buyer's lock, the send's outcome).
 */
import type { ExecutionContext } from 'ava';
import { decode } from '../../../actors/codec.js';
import type { PayoutSignerProvider } from '../../../actors/adapters/wallet-provider/payout-signers.js';
import { EmbeddedStore, type CollectionSpec, type Collection, type StoredDocument } from '../../../actors/index.js';
import { merchantKind } from '../../../actors/kinds/merchant-kind.js';
import { PayeeDirectory } from '../../../actors/market/payee-directory.js';
import { actorCollectionName, type ActorDocument } from '../../../actors/runtime/actor-document.js';
import { KeptKeys } from '../../../gateway/cashout/kept-keys.js';
import type { PayoutContext, PayoutSettings } from '../../../machines/payout/index.js';
import { advance, answerOf } from '../../support/checkout.js';
import { startTestGateway, type ApiResponse } from '../../support/gateway.js';
import { serveGateway } from '../../support/gateway-app.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { ResponseValidator } from '../../support/openapi-validator.js';
import { FakeBalances, FakeFunding, FakeWallets, SERVICE_WALLET, payoutBody } from '../../support/payout-fakes.js';
import { newKey, SETTINGS, USDC } from '../payouts/payout-world.js';
import { CaughtMail, linkOf, type CheckoutLink } from './cashout-world.js';

/** An in-memory store that can hold a payout's listing or send on its way (see the file's comment). */
class HoldingStore extends EmbeddedStore {
  readonly held = new Set<string>();

  override async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
    const collection = await super.collection<T>(spec);
    if (spec.name !== actorCollectionName('payout')) return collection;
    const held = this.held;
    return new Proxy(collection, {
      get(target, name) {
        if (name === 'replaceOne')
          return async (...args: Parameters<Collection<T>['replaceOne']>) => {
            if (held.has(args[1]._id) && recordsFailedSend(args[1])) throw new Error('the store could not be reached');
            return target.replaceOne(...args);
          };
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

/** A turn of the listing's or send's report: what the effect learnt was a failure. */
function recordsFailedSend(doc: StoredDocument): boolean {
  const { context } = decode<{ context: PayoutContext }>((doc as ActorDocument).snapshot);
  return context.listingError !== null || context.sendError !== null;
}

/** The wallet provider's payout signer, in memory: it attaches unless told to fail. */
export class StubSigners implements PayoutSignerProvider {
  readonly #attached = new Set<string>();
  failing = false;

  async attach(walletAddress: `0x${string}`): Promise<{ attachedAt: string }> {
    if (this.failing) throw new Error('the wallet provider did not answer');
    this.#attached.add(walletAddress.toLowerCase());
    return { attachedAt: new Date(0).toISOString() };
  }

  async attached(walletAddress: `0x${string}`): Promise<boolean> {
    return this.#attached.has(walletAddress.toLowerCase());
  }

  async wallet(): Promise<null> {
    return null;
  }
}

/** Balances the wallet check reads, counted. */
export class CountedBalances extends FakeBalances {
  reads = 0;

  override async usdcOf(address: `0x${string}`): Promise<bigint> {
    this.reads++;
    return super.usdcOf(address);
  }
}

export interface RefusalWorld {
  balances: CountedBalances;
  signers: StubSigners;
  /** From now on the customer's checkout cannot reach the payee directory. */
  cutPayeeDirectory(): void;
  setSettings(settings: PayoutSettings): Promise<void>;
  /** A payout created and read AWAITING_FUNDING: its link. */
  awaitingPayout(body?: unknown): Promise<CheckoutLink>;
  /** A payout of `body`, funded in full and FUNDED: its link. */
  fundedPayout(body?: unknown): Promise<CheckoutLink>;
  /** A call on the customer's checkout with the link's token and, when given, a login token; `headers` replace both. */
  checkout(
    link: CheckoutLink,
    method: string,
    path?: string,
    options?: { body?: unknown; login?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  /** GET of the checkout state (200 required): its responseObject. */
  state(link: CheckoutLink): Promise<any>;
  /** The payout as its merchant reads it (200 required). */
  view(link: CheckoutLink): Promise<any>;
  signIn(link: CheckoutLink, email?: string): Promise<string>;
  /** The payout's listing or send stays on its way from now on (the file's comment says how). */
  hold(link: CheckoutLink): void;
  /** Delivers `event` to the payout through the admin API, as the platform would (200 required). */
  deliver(link: CheckoutLink, event: Record<string, unknown>): Promise<void>;
  /** The payout as the admin API inspects it: its state and context. */
  inspect(link: CheckoutLink): Promise<{ state: unknown; context: Record<string, any> }>;
  advance(ms: number): Promise<void>;
  iso(offsetMs?: number): string;
}

/** `environment`: the NODE_ENV the customer's checkout runs under. */
export async function refusalWorld(t: ExecutionContext, environment = 'test'): Promise<RefusalWorld> {
  const store = new HoldingStore();
  const funding = new FakeFunding();
  const balances = new CountedBalances();
  const mail = new CaughtMail();
  const gateway = await startTestGateway(
    { PAYOUT_FUNDING_POLL_MS: 60 * 60 * 1000 },
    {
      store,
      payoutProviders: {
        funding,
        wallets: new FakeWallets(),
        balances,
        deliveries: funding,
        settlement: {
          chain: { chainId: 8453, escrow: '0x0000000000000000000000000000000000000001', orchestrator: '0x0000000000000000000000000000000000000002' },
          usdc: '0x0000000000000000000000000000000000000003',
        },
        serviceWalletAddress: SERVICE_WALLET,
      },
      cashoutMail: mail,
    },
  );
  t.teardown(() => gateway.stop());
  const { node, clock } = gateway;
  const iso = (offsetMs = 0) => new Date(clock.now() + offsetMs).toISOString();
  const merchant = await gateway.createMerchant();
  const setSettings = async (settings: PayoutSettings) => {
    await node.system.ask(merchantKind, merchant.liveId, { type: 'UPDATE_SETTINGS', changes: { payouts: settings }, at: iso() });
  };
  await setSettings(SETTINGS);

  const signers = new StubSigners();
  let payeesDown = false;
  const payeeStore = interceptedStore(node.store, (spec, collection) =>
    spec.name === 'payee_directory'
      ? {
          findOne: (filter, options) =>
            payeesDown ? Promise.reject(new Error('the payee directory could not be reached')) : collection.findOne(filter, options),
        }
      : {},
  );
  const customer = await serveGateway(
    t,
    { system: node.system, store: node.store, bus: node.bus, clock },
    {
      environment,
      cashout: {
        keys: new KeptKeys(node.store, () => iso()),
        mail,
        signers,
        payees: await PayeeDirectory.open(payeeStore),
        balances,
        // No conversion provider: a crypto payout beyond USDC on Base is not what these refusals are about.
        bridges: null,
        connections: null,
      },
    },
  );
  const validator = await ResponseValidator.fetch(customer.url);

  const checkout: RefusalWorld['checkout'] = async (link, method, path = '', options = {}) => {
    const headers: Record<string, string> = options.headers ?? {
      'x-cashout-token': link.token,
      ...(options.login ? { authorization: `Bearer ${options.login}` } : {}),
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const target = `/api/v1/cashout-checkout/${link.payoutId}${path}`;
    const response = await fetch(customer.url + target, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const body = (await response.json()) as ApiResponse['body'];
    validator.assert({ method, target, status: response.status, contentType: response.headers.get('content-type'), body });
    return { status: response.status, headers: response.headers, body };
  };
  const created = async (body: unknown = payoutBody()) =>
    answerOf(await gateway.request('POST', '/api/v1/payouts', { key: merchant.liveKey, body, headers: { 'idempotency-key': newKey() } }), 201, 'payout create');
  const view = async (payoutId: string) => answerOf(await gateway.request('GET', `/api/v1/payouts/${payoutId}`, { key: merchant.liveKey }), 200, 'payout read');

  return {
    balances,
    signers,
    cutPayeeDirectory() {
      payeesDown = true;
    },
    setSettings,
    async awaitingPayout(body?: unknown) {
      return linkOf((await created(body)).checkoutUrl);
    },
    async fundedPayout(body?: unknown) {
      const payout = await created(body);
      const transfer = funding.send(104_123_712n, iso());
      funding.deliver(transfer, 101n * USDC);
      answerOf(
        await gateway.request('POST', '/api/v1/providers/conversion/funding-activity', { body: { requestId: `req_${payout.payoutId}` } }),
        202,
        'funding activity',
      );
      await node.system.effectsIdle();
      const { status } = await view(payout.payoutId);
      if (status !== 'FUNDED') throw new Error(`the payout is ${status}, not FUNDED`);
      return linkOf(payout.checkoutUrl);
    },
    checkout,
    async state(link: CheckoutLink) {
      return answerOf(await checkout(link, 'GET'), 200, 'the checkout state');
    },
    view: (link: CheckoutLink) => view(link.payoutId),
    async signIn(link: CheckoutLink, email = 'ana@example.com') {
      answerOf(await checkout(link, 'POST', '/sign-in/code'), 202, 'the code');
      return answerOf(await checkout(link, 'POST', '/sign-in', { body: { code: mail.codeFor(email) } }), 200, 'the sign-in').loginToken as string;
    },
    hold(link: CheckoutLink) {
      store.held.add(link.payoutId);
    },
    async deliver(link: CheckoutLink, event: Record<string, unknown>) {
      answerOf(await gateway.admin('POST', `/internal/v1/actors/payout/${link.payoutId}/events`, { event }), 200, `the admin API's ${String(event.type)}`);
    },
    async inspect(link: CheckoutLink) {
      return answerOf(await gateway.admin('GET', `/internal/v1/actors/payout/${link.payoutId}`), 200, 'the inspected payout');
    },
    advance: (ms: number) => advance(gateway, ms),
    iso,
  };
}
