/**
 * The payout checkout page behind a payout's checkoutUrl (`/cashout/{payoutId}?token=…`):
 * the customer waits for the merchant to fund the payout, signs in with an e-mailed code,
 * chooses how to be paid (connecting their Venmo, Cash App or PayPal account, or not), lists the payout for buyers or has it sent to a crypto address
 * (through the conversion provider, priced first, for any token but USDC on Base), may take a
 * listing back or send its rest to an address, and follows it until it is paid. The state is
 * read with the link's token and polled, so the page follows what happens elsewhere (the
 * funding, the listing landing, buyers paying, the provider delivering); every screen is one
 * of the state's (cashout-steps.ts) and offers only what its `actions` allow. A refusal is said
 * in words and, where the payout moved on, the page reads it again and shows where it is.
 */
import type { Address } from 'viem';
import { attestAccount, canConnect, registrationOf } from './account-connect.js';
import { CashoutApi, CashoutError, type CashoutState, type DestinationBody, type PayoutQuote } from './cashout-api.js';
import { connectScreen } from './cashout-connect-screen.js';
import { destinationList } from './cashout-crypto-views.js';
import { deliveredWords } from './cashout-crypto-words.js';
import { bridgingScreen, exitPendingScreen, listingScreen, relistPendingScreen } from './cashout-listing-screens.js';
import { CRYPTO_CHOICE, type MethodDraft, draftOf, isFiatRail, methodBody, methodChoices } from './cashout-method-draft.js';
import { methodScreen } from './cashout-method-screen.js';
import { confirmScreen } from './cashout-confirm-screen.js';
import type { CashoutPageConfig } from './cashout-page-config.js';
import { restFormScreen, restReviewScreen } from './cashout-rest-screen.js';
import { CashoutSession } from './cashout-session.js';
import { readCode, signInScreen } from './cashout-sign-in-screen.js';
import {
  type CashoutStep,
  connectableMethod,
  connectedNow,
  cryptoMethodOf,
  FINAL_STEPS,
  isBridged,
  isZero,
  type PageFlags,
  payoutAmount,
  statusWords,
  stepOf,
  unpaidAmount,
} from './cashout-steps.js';
import { back, merchantOf, paidSoFar, settlement, summary, timeline } from './cashout-views.js';
import { DEAD_LINK_HELP, listingErrorWords, type RefusalContext, refusalOf } from './cashout-words.js';
import { h } from './dom.js';
import { formatAmount } from './format-amount.js';
import { railName } from './rail-names.js';
import { DESTINATION_NETWORKS } from '../../../machines/payout/destination-catalog.js';

/** Buyers take a listing within seconds on the chain: the page reads the state this often until the payout ends. */
const POLL_MS = 1_500;

type Screen = CashoutStep | 'dead';

const TIMELINE_STEPS: ReadonlySet<Screen> = new Set(['listing', 'bridging', 'paying', 'settled']);
const REST_STEPS: ReadonlySet<Screen> = new Set(['send-rest', 'send-rest-confirm']);

/** A crypto payout to price: what would be sent where, and `key`, which changes when the destination or the amount does. */
interface Pricing {
  key: string;
  body: DestinationBody;
}

interface PageState {
  state: CashoutState;
  busy: boolean;
  /** The latest refusal, in words, and the field it is about. */
  error: string | null;
  invalid: string | null;
  /** The action that failed for a while (the service unavailable): offered again beside the error. */
  retry: (() => void) | null;
  /** This link can never work, once a call has said so: the page shows only that. */
  dead: boolean;
  /** The customer asked to change a saved method. */
  changingMethod: boolean;
  /** On a listing, the customer asked to sign in (to take it back or send the rest). */
  signingIn: boolean;
  /** Sending a listing's rest: choosing where (`form`), then its price (`priced`). */
  sendingRest: PageFlags['sendingRest'];
  /** The customer asked to list what is left again, and it is on its way: the state does not say which way out is. */
  relisting: boolean;
  /** On a ready method, the customer asked to connect its account, or confirming said its connection lapsed. */
  connecting: PageFlags['connecting'];
  /** The account to sign in to when connecting, as typed; the method's own until changed. */
  account: string | null;
  code: string;
  /** The method form as typed; made from the state when the form is first shown. */
  draft: MethodDraft | null;
  /** Where the rest goes, as typed, and once chosen. */
  restDraft: MethodDraft | null;
  restBody: DestinationBody | null;
  /** The price shown for a crypto payout through the provider: for `key`; null while asked for, or once refused. */
  quote: { key: string; quote: PayoutQuote | null; pricing: boolean } | null;
}

class CashoutPage {
  readonly #root = document.getElementById('cashout')!;
  readonly #api: CashoutApi;
  readonly #session: CashoutSession;
  readonly #config: CashoutPageConfig;
  #page!: PageState;
  /** What the screen shows, so a poll that changed nothing leaves the page (and a field being typed in) alone. */
  #shown = '';
  #screen: Screen | null = null;
  #timer: number | undefined;
  /** A refusal was just said: the next drawing moves focus to it. */
  #focusRefusal = false;
  /** Refusals said so far, so the same words said twice are drawn (and focused) twice. */
  #said = 0;
  /** The last drawing was of an action under way: the next one ends it. */
  #afterAction = false;

  constructor(payoutId: string, linkToken: string, config: CashoutPageConfig) {
    this.#session = new CashoutSession(payoutId);
    this.#api = new CashoutApi(payoutId, linkToken, () => this.#session.login);
    this.#config = config;
  }

  async start(): Promise<void> {
    let state: CashoutState;
    try {
      state = await this.#api.state();
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal.kind === 'dead') return this.#show('dead', deadLink());
      this.#show('dead', [
        h('h1', {}, 'This payout could not load'),
        h('p', { role: 'alert' }, refusal.words),
        h('button', { type: 'button', class: 'primary', onclick: () => void this.start() }, 'Try again'),
      ]);
      return;
    }
    this.#page = {
      state,
      busy: false,
      error: null,
      invalid: null,
      retry: null,
      dead: false,
      changingMethod: false,
      signingIn: false,
      sendingRest: null,
      relisting: false,
      connecting: null,
      account: null,
      code: '',
      draft: null,
      restDraft: null,
      restBody: null,
      quote: null,
    };
    this.#render();
    this.#schedule();
  }

  #schedule(): void {
    window.clearTimeout(this.#timer);
    if (this.#page.dead || FINAL_STEPS.has(this.#step())) return;
    this.#timer = window.setTimeout(() => void this.#poll(), POLL_MS);
  }

  async #poll(): Promise<void> {
    if (!this.#page.busy) {
      try {
        const before = this.#step();
        this.#page.state = await this.#api.state();
        // What a refusal said was about the screen it came on: a screen the payout moved to starts clean.
        if (this.#step() !== before) Object.assign(this.#page, { error: null, invalid: null, retry: null });
      } catch (error) {
        // A failed poll is retried on the next tick; only a link that stopped working for good ends it.
        if (refusalOf(error).kind === 'dead') this.#page.dead = true;
      }
      this.#render();
    }
    this.#schedule();
  }

  #step(): CashoutStep {
    const { changingMethod, signingIn, sendingRest, relisting, connecting } = this.#page;
    return stepOf(this.#page.state, { signedIn: this.#session.login !== null, changingMethod, signingIn, sendingRest, relisting, connecting });
  }

  async #act(what: () => Promise<CashoutState | undefined>, context: RefusalContext = {}): Promise<void> {
    Object.assign(this.#page, { busy: true, error: null, invalid: null, retry: null });
    this.#render();
    try {
      this.#page.state = (await what()) ?? (await this.#api.state());
    } catch (error) {
      await this.#refused(error, () => void this.#act(what, context), context);
    } finally {
      this.#page.busy = false;
      this.#render();
      this.#schedule();
    }
  }

  async #refused(error: unknown, again: () => void, context: RefusalContext): Promise<void> {
    const refusal = refusalOf(error, context);
    this.#page.error = refusal.words;
    this.#page.invalid = refusal.field ?? null;
    this.#focusRefusal = true;
    this.#said += 1;
    if (refusal.kind === 'dead') this.#page.dead = true;
    if (refusal.kind === 'sign-in') this.#session.keep('login', null);
    if (refusal.kind === 'retry') this.#page.retry = again;
    // A lapsed connection is made again where the customer confirmed.
    if (error instanceof CashoutError && error.code === 'CASHOUT_CREDENTIAL_INACTIVE') this.#page.connecting = 'lapsed';
    if (refusal.kind === 'moved') {
      this.#page.changingMethod = false;
      this.#page.state = await this.#api.state().catch(() => this.#page.state);
    }
    // Where the rest goes is fixed on its form: a refused address, token or network goes back to it, marked.
    if (refusal.field && this.#page.sendingRest === 'priced') this.#page.sendingRest = 'form';
  }

  /** What the screen prices: a crypto confirm through the provider, or the rest to send; null elsewhere. */
  #pricing(screen: Screen): Pricing | null {
    const { state, restBody } = this.#page;
    const method = cryptoMethodOf(state);
    let body: DestinationBody | null = null;
    if (screen === 'confirm' && method && isBridged(method))
      body = { rail: method.rail, tokenAddress: method.destination.tokenAddress, address: method.destination.address };
    if (screen === 'send-rest-confirm') body = restBody;
    return body ? { key: JSON.stringify([body, unpaidAmount(state)]), body } : null;
  }

  /** Asks for the price now; a refusal is said as any other is, and "Try again" asks again. */
  async #price({ key, body }: Pricing): Promise<void> {
    this.#page.quote = { key, quote: null, pricing: true };
    try {
      const quote = await this.#api.payoutQuote(body);
      if (this.#page.quote?.key === key) this.#page.quote = { key, quote, pricing: false };
    } catch (error) {
      if (this.#page.quote?.key !== key) return;
      this.#page.quote = { key, quote: null, pricing: false };
      const again = () => {
        Object.assign(this.#page, { error: null, invalid: null, retry: null, quote: null });
        this.#render();
      };
      await this.#refused(error, again, contextOf(body));
    } finally {
      this.#render();
    }
  }

  /** A problem the page finds before asking: said and marked as a refusal would be. */
  #problem(words: string, field: string): void {
    Object.assign(this.#page, { error: words, invalid: field, retry: null });
    this.#focusRefusal = true;
    this.#said += 1;
    this.#render();
  }

  #render(): void {
    const { state } = this.#page;
    const screen: Screen = this.#page.dead ? 'dead' : this.#step();
    // What the page holds for one screen is dropped once the payout or the customer left it.
    if (screen !== 'choose-method') this.#page.draft = null;
    if (screen !== 'sign-in') this.#page.signingIn = false;
    if (screen !== 'relist-pending') this.#page.relisting = false;
    if (screen !== 'connect') Object.assign(this.#page, { connecting: null, account: null });
    if (!REST_STEPS.has(screen)) Object.assign(this.#page, { sendingRest: null, restDraft: null, restBody: null });
    const pricing = this.#pricing(screen);
    if (!pricing) this.#page.quote = null;
    else if (this.#page.quote?.key !== pricing.key) void this.#price(pricing);
    const { draft, restDraft, quote } = this.#page;
    const key = JSON.stringify([
      screen,
      state.payout.status,
      state.actions,
      state.method,
      state.listingError,
      state.payoutBridge,
      state.payout.paidAmount,
      state.payout.settlement,
      // The timeline is shown only while listed and once ended: a new entry elsewhere (a sign-in) redraws no form being typed in.
      TIMELINE_STEPS.has(screen) ? state.timeline.length : null,
      this.#page.error,
      this.#page.invalid,
      this.#said,
      this.#page.busy,
      this.#session.codeSent?.expiresAt,
      draft?.choice,
      draft?.network,
      restDraft?.network,
      this.#page.connecting,
      state.connection,
      quote,
    ]);
    if (key === this.#shown) return;
    this.#shown = key;
    if (screen === 'dead') this.#show('dead', deadLink());
    else this.#show(screen, [summary(state, statusWords(state, screen)), ...this.#content(screen), h('footer', {}, 'Payouts by Peer')]);
  }

  /**
   * Replaces the page's content. A new screen moves focus to its heading, so a screen reader
   * hears each step begin; a refusal moves it to the field it is about, or to its words; a
   * redraw of the same screen leaves it where it was, and after an action on the same screen
   * puts it where the customer carries on.
   */
  #show(screen: Screen, content: (Node | null)[]): void {
    const active = document.activeElement;
    const focusedId = active && this.#root.contains(active) ? active.id : '';
    this.#root.replaceChildren(...content.filter((node): node is Node => node !== null));
    const busy = this.#page?.busy ?? false;
    this.#root.setAttribute('aria-busy', String(busy));
    const headingFocused = active?.tagName === 'H1' && this.#root.contains(active);
    const heading = this.#root.querySelector<HTMLElement>('h1');
    if (heading) heading.tabIndex = -1;
    let target: HTMLElement | null = null;
    if (this.#focusRefusal) target = this.#root.querySelector<HTMLElement>('[aria-invalid="true"]') ?? this.#root.querySelector<HTMLElement>('#step-error');
    else if (screen !== this.#screen || headingFocused) target = heading;
    else if (focusedId) target = document.getElementById(focusedId);
    else if (this.#afterAction) target = this.#root.querySelector<HTMLElement>('[data-autofocus]') ?? heading;
    this.#focusRefusal = false;
    this.#afterAction = busy;
    this.#screen = screen;
    target?.focus({ preventScroll: target === heading });
  }

  #errorBox(): HTMLElement | null {
    const { error, retry } = this.#page;
    if (!error) return null;
    return h(
      'div',
      { class: 'error-box' },
      h('p', { id: 'step-error', class: 'error', role: 'alert', tabindex: '-1' }, error),
      retry ? h('button', { type: 'button', class: 'retry', onclick: retry }, 'Try again') : null,
    );
  }

  #content(screen: CashoutStep): (HTMLElement | null)[] {
    const { state } = this.#page;
    const merchant = merchantOf(state);
    switch (screen) {
      case 'awaiting-funding':
        return [
          h('h1', {}, 'Your payout is on its way'),
          h('p', {}, `${merchant} has yet to send it. This page updates by itself once they have: then you sign in and choose how to be paid.`),
          this.#errorBox(),
        ];
      case 'sign-in':
        return this.#signIn();
      case 'choose-method':
        return this.#chooseMethod();
      case 'connect':
        return this.#connect();
      case 'confirm':
        return this.#confirm();
      case 'listing-pending': {
        const method = cryptoMethodOf(state);
        return method
          ? [
              h('h1', {}, 'Sending your payout'),
              h('p', { class: 'loading', role: 'status' }, 'Your wallet is sending the USDC to your address. This takes a few seconds.'),
              destinationList(method.destination, { usdc: unpaidAmount(state), delivered: null }),
              this.#errorBox(),
            ]
          : [
              h('h1', {}, 'Listing your payout'),
              h('p', { class: 'loading', role: 'status' }, `Your wallet is putting your USDC up for buyers on ${this.#railName()}. This takes a few seconds.`),
              this.#errorBox(),
            ];
      }
      case 'bridging':
        return bridgingScreen(state, this.#errorBox());
      case 'listing':
        return this.#listing();
      case 'exit-pending':
        return exitPendingScreen(state, this.#errorBox());
      case 'relist-pending':
        return relistPendingScreen(state, this.#errorBox());
      case 'send-rest':
        return this.#restForm();
      case 'send-rest-confirm':
        return this.#restReview();
      case 'paying':
        return [
          h('h1', {}, 'A buyer is paying you'),
          h('p', { role: 'status' }, `A buyer is paying you on ${this.#railName()}: check your ${this.#railName()} account (${this.#handle()}).`),
          h('p', { class: 'hint' }, 'There is nothing to do here. Once their payment is proven, this page shows it.'),
          this.#errorBox(),
          paidSoFar(state),
          timeline(state),
        ];
      case 'settled':
        return [
          h('h1', {}, 'You have been paid'),
          h('p', {}, `${merchant}’s payout of ${formatAmount(payoutAmount(state), 'USDC')} is complete.${this.#receivedWords()}`),
          this.#errorBox(),
          settlement(state),
          timeline(state),
          back(state),
        ];
      // An action refused because the payout ended meanwhile says so here (CASHOUT_LINK_EXPIRED).
      case 'cancelled':
        return [h('h1', {}, 'This payout was cancelled'), h('p', {}, this.#cancelledWhy()), this.#errorBox(), back(state)];
      case 'expired':
        return [
          h('h1', {}, 'This payout expired'),
          h('p', {}, `${merchant} did not fund it in time, so there is nothing to pay out.`),
          this.#errorBox(),
          back(state),
        ];
    }
  }

  /** " You received 59.94 USDT on Arbitrum.", after a payout the provider delivered. */
  #receivedWords(): string {
    const transfer = this.#page.state.payout.payoutTransfer;
    const bridge = this.#page.state.payoutBridge;
    if (!transfer?.provider || bridge?.status !== 'DELIVERED') return '';
    return ` You received ${deliveredWords(transfer.amount, bridge.destination, true)}.`;
  }

  /** The app buyers pay on; a listing whose method became an address (a send of its rest that did not go through) no longer names it. */
  #railName(): string {
    const method = this.#page.state.method;
    return method && 'handle' in method ? railName(method.rail) : 'the app you chose';
  }

  #handle(): string {
    const method = this.#page.state.method;
    return method && 'handle' in method ? method.handle : 'your account';
  }

  #cancelledWhy(): string {
    switch (this.#page.state.payout.cancelSource) {
      case 'MERCHANT':
        return `${merchantOf(this.#page.state)} cancelled it before funding it. Nothing was paid.`;
      case 'PEER_APP':
        return 'The USDC left your wallet in the app before it was listed, so this payout ended.';
      default:
        return 'Nothing more can be done on it.';
    }
  }

  #signIn(): (HTMLElement | null)[] {
    return signInScreen({
      sentTo: this.#page.state.sentTo,
      codeSent: this.#session.codeSent,
      code: this.#page.code,
      busy: this.#page.busy,
      invalid: this.#page.invalid === 'code',
      errorBox: this.#errorBox(),
      caughtMailUrl: this.#config.caughtMailUrl,
      back:
        this.#page.state.payout.status === 'LISTING'
          ? () => {
              Object.assign(this.#page, { signingIn: false, error: null, invalid: null, retry: null });
              this.#render();
            }
          : null,
      onCode: (code) => (this.#page.code = code),
      sendCode: () =>
        void this.#act(async () => {
          const sent = await this.#api.sendCode();
          this.#session.keep('code', { value: sent.sentTo, expiresAt: sent.expiresAt });
          this.#page.code = '';
          return this.#page.state;
        }),
      signIn: () => {
        const code = readCode(this.#page.code);
        if (code === null) return this.#problem('Enter the 6 digits of the code we e-mailed you.', 'code');
        void this.#act(async () => {
          const signed = await this.#api.signIn(code);
          this.#session.keep('login', { value: signed.loginToken, expiresAt: signed.expiresAt });
          this.#session.keep('code', null);
          this.#page.code = '';
          return undefined;
        });
      },
    });
  }

  #chooseMethod(): (HTMLElement | null)[] {
    const { state } = this.#page;
    const choices = methodChoices(state);
    const draft = (this.#page.draft ??= draftOf(state, choices));
    return methodScreen({
      choices,
      draft,
      lead: chooseAgainWords(state, this.#page.changingMethod),
      busy: this.#page.busy,
      invalid: this.#page.invalid,
      errorBox: this.#errorBox(),
      cancel:
        state.method && this.#page.changingMethod
          ? () => {
              Object.assign(this.#page, { changingMethod: false, error: null, invalid: null });
              this.#render();
            }
          : null,
      onChoose: (next) => {
        Object.assign(this.#page, { draft: next, error: null, invalid: null });
        this.#render();
      },
      save: () => {
        const check = methodBody(draft, choices);
        if ('problem' in check) return this.#problem(check.problem, check.field);
        const network = DESTINATION_NETWORKS.find((candidate) => candidate.rail === check.body.rail);
        void this.#act(
          async () => {
            const saved = await this.#api.saveMethod(check.body);
            this.#page.changingMethod = false;
            return saved;
          },
          { railName: isFiatRail(check.body.rail) ? railName(check.body.rail) : 'Crypto', networkName: network?.name },
        );
      },
    });
  }

  #changeMethod(): HTMLElement | null {
    if (!this.#page.state.actions.includes('SAVE_METHOD')) return null;
    return h(
      'button',
      {
        type: 'button',
        class: 'link',
        disabled: this.#page.busy,
        onclick: () => {
          Object.assign(this.#page, { changingMethod: true, error: null, invalid: null });
          this.#render();
        },
      },
      'Change how I am paid',
    );
  }

  #connect(): (HTMLElement | null)[] {
    const { state, connecting } = this.#page;
    const method = connectableMethod(state);
    const rail = this.#railName();
    const pending = state.actions.includes('SKIP_CONNECT');
    const reachable = method !== null && state.walletAddress !== null && canConnect(this.#config);
    return connectScreen({
      rail,
      handle: this.#handle(),
      why: pending ? 'pending' : connecting === 'lapsed' ? 'lapsed' : 'asked',
      signIn: reachable
        ? {
            account: this.#page.account ?? method.handle,
            label: `Sign in to ${rail} as`,
            onAccount: (account) => (this.#page.account = account),
          }
        : null,
      busy: this.#page.busy,
      invalid: this.#page.invalid,
      errorBox: this.#errorBox(),
      connect: () => this.#connectAccount(),
      skip: pending ? () => void this.#act(() => this.#api.skipConnect()) : null,
      back:
        !pending && connecting === 'asked'
          ? () => {
              Object.assign(this.#page, { connecting: null, error: null, invalid: null, retry: null });
              this.#render();
            }
          : null,
      changeMethod: this.#changeMethod(),
    });
  }

  /**
   * Signs in to the account (the simulator's sign-in on a development node), has the attestation
   * service attest it for the customer's wallet, and hands that to the checkout: READY, connected.
   */
  #connectAccount(): void {
    const { state } = this.#page;
    const method = connectableMethod(state);
    if (!method || state.walletAddress === null) return;
    const rail = railName(method.rail);
    const registration = registrationOf(method.rail, this.#page.account ?? method.handle);
    if (!registration) {
      this.#problem(`That is not a ${rail} account you can sign in to. Check it and try again.`, 'account');
      return;
    }
    const wallet = state.walletAddress as Address;
    void this.#act(
      async () => {
        const attestation = await attestAccount(this.#config, registration, wallet).catch((error: unknown) => {
          // The sign-in or the attestation service failed: nothing changed, and trying again may work.
          throw new CashoutError(503, null, error instanceof Error ? error.message : String(error));
        });
        const connected = await this.#api.connect(attestation);
        Object.assign(this.#page, { connecting: null, account: null });
        return connected;
      },
      { railName: rail, account: method.handle },
    );
  }

  /** "Connect my Venmo account", on a ready method whose account is not connected now (skipped, or the connection lapsed). */
  #connectLink(): HTMLElement | null {
    const { state } = this.#page;
    const method = connectableMethod(state);
    if (!method || !state.actions.includes('SAVE_METHOD') || connectedNow(state, Date.now())) return null;
    return h(
      'button',
      {
        type: 'button',
        class: 'link',
        disabled: this.#page.busy,
        onclick: () => {
          Object.assign(this.#page, { connecting: 'asked', error: null, invalid: null, retry: null });
          this.#render();
        },
      },
      `Connect my ${railName(method.rail)} account`,
    );
  }

  #confirm(): (HTMLElement | null)[] {
    const { state, quote } = this.#page;
    const method = cryptoMethodOf(state);
    return confirmScreen({
      state,
      quote: quote?.quote ?? null,
      pricing: quote?.pricing ?? false,
      busy: this.#page.busy,
      errorBox: this.#errorBox(),
      changeMethod: this.#changeMethod(),
      connectAccount: this.#connectLink(),
      confirm: () => void this.#act(() => this.#withSigner(() => this.#api.confirm()), method ? contextOf(method) : {}),
    });
  }

  /** An action of the wallet; one whose payout signer is not attached yet (sign-in attaches it, and may have failed) sets it up and asks again. */
  async #withSigner(action: () => Promise<CashoutState>): Promise<CashoutState> {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof CashoutError && error.code === 'CASHOUT_SIGNER_NOT_ATTACHED')) throw error;
      await this.#api.attachSigner();
      return action();
    }
  }

  #listing(): (HTMLElement | null)[] {
    const { state } = this.#page;
    return listingScreen({
      state,
      signedIn: this.#session.login !== null,
      busy: this.#page.busy,
      errorBox: this.#errorBox(),
      listingError: state.listingError ? listingErrorWords(state.listingError) : null,
      signIn: () => {
        Object.assign(this.#page, { signingIn: true, error: null, invalid: null, retry: null });
        this.#render();
      },
      sendRest: () => {
        Object.assign(this.#page, { sendingRest: 'form', error: null, invalid: null, retry: null });
        this.#render();
      },
      withdraw: () => void this.#act(() => this.#withSigner(() => this.#api.withdraw())),
      relist: () =>
        void this.#act(async () => {
          const relisted = await this.#withSigner(() => this.#api.relist());
          this.#page.relisting = true;
          return relisted;
        }),
    });
  }

  #restForm(): (HTMLElement | null)[] {
    const { state } = this.#page;
    const choices = { fiat: [], networks: methodChoices(state).networks };
    const draft = (this.#page.restDraft ??= { ...draftOf({ ...state, method: null }, choices), choice: CRYPTO_CHOICE });
    return restFormScreen({
      state,
      networks: choices.networks,
      draft,
      busy: this.#page.busy,
      invalid: this.#page.invalid,
      errorBox: this.#errorBox(),
      onChoose: (next) => {
        Object.assign(this.#page, { restDraft: next, error: null, invalid: null });
        this.#render();
      },
      price: () => {
        const check = methodBody(draft, choices);
        if ('problem' in check) return this.#problem(check.problem, check.field);
        Object.assign(this.#page, { restBody: check.body, sendingRest: 'priced', error: null, invalid: null, retry: null });
        this.#render();
      },
      cancel: () => {
        Object.assign(this.#page, { sendingRest: null, error: null, invalid: null, retry: null });
        this.#render();
      },
    });
  }

  #restReview(): (HTMLElement | null)[] {
    const { state, restBody, quote } = this.#page;
    const body = restBody!;
    return restReviewScreen({
      state,
      body,
      quote: quote?.quote ?? null,
      pricing: quote?.pricing ?? true,
      busy: this.#page.busy,
      errorBox: this.#errorBox(),
      send: () => void this.#act(() => this.#withSigner(() => this.#api.sendToAddress(body)), contextOf(body)),
      change: () => {
        Object.assign(this.#page, { sendingRest: 'form', error: null, invalid: null, retry: null });
        this.#render();
      },
    });
  }
}

/** What a refusal about a crypto destination names: the network, as the customer chose it. */
function contextOf(destination: { rail: string }): RefusalContext {
  return { railName: 'Crypto', networkName: DESTINATION_NETWORKS.find((network) => network.rail === destination.rail)?.name };
}

/** Why the customer chooses again: a listing taken back (FUNDED with a method they did not ask to change), after buyers paid part of it or not. */
function chooseAgainWords(state: CashoutState, changingMethod: boolean): string | null {
  if (state.payout.status !== 'FUNDED' || state.method === null || changingMethod) return null;
  const unpaid = formatAmount(unpaidAmount(state), 'USDC');
  return isZero(state.payout.paidAmount)
    ? `Your listing is taken back: the ${unpaid} is back in your wallet. Choose how to be paid.`
    : `Your listing is taken back. Buyers paid ${formatAmount(state.payout.paidAmount, 'USDC')}; choose how to be paid the other ${unpaid}.`;
}

function deadLink(): HTMLElement[] {
  return [h('h1', {}, 'This payout link does not work'), h('p', {}, DEAD_LINK_HELP)];
}

function start(): void {
  const payoutId = decodeURIComponent(window.location.pathname.split('/').at(-1) ?? '');
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const config = JSON.parse(document.getElementById('cashout-config')!.textContent!) as CashoutPageConfig;
  void new CashoutPage(payoutId, token, config).start();
}

start();
