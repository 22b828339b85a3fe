/**
 * The hosted checkout page: the order as the hosted read shows it, then the customer's
 * steps. An open amount is typed or picked first; then a rail with its quote; then the
 * payment (whom to pay, the exact amount, the memo, each copyable, a QR code where the
 * app or wallet can scan one, a countdown to the quote's expiry), proven in the simulator
 * or simulated in the sandbox; then Paid, with a receipt and the way back to the shop, or
 * Expired, with another try. The shop's cancelUrl is offered at every step before. The
 * hosted read is polled, so the page follows what happens elsewhere (the chain settling,
 * the window closing).
 */
import { applyTheme } from './checkout-theme.js';
import { announce, h, show } from './dom.js';
import { readAmount } from './amount-input.js';
import { CheckoutApi, type CheckoutPayment, type HostedOrder, type Quote } from './api.js';
import { payInSimulator, sealProof, sendFromTestWallet, type SentPayment } from './buyer-proof.js';
import { copyButton } from './copy-button.js';
import { deadLink, describe, isUnavailable, PAYMENTS_UNAVAILABLE } from './error-words.js';
import { formatAmount, formatNumber } from './format-amount.js';
import type { CheckoutPageConfig } from './page-config.js';
import { payLink } from './pay-link.js';
import { qrCode } from './qr-code.js';
import { chainName, isCrypto, railName, ZELLE_BANKS } from './rail-names.js';
import { receipt } from './receipt.js';
import { recipientNote } from './recipient-note.js';
import { timeLeft } from './time-left.js';

const POLL_MS = 1_500;
const REDIRECT_MS = 4_000;
/**
 * How long a price may take to reserve (the intent signalled on chain, seconds where the chain
 * answers) before the page stops showing a spinner and says something is wrong.
 */
const RESERVE_PATIENCE_MS = 60_000;
interface PageState {
  hosted: HostedOrder;
  /** The amount step is shown again when the customer asks to change a saved amount. */
  editingAmount: boolean;
  /** What the customer last typed as the amount, kept through a refusal so they can correct it. */
  typedAmount: string | null;
  /** An expired or failed attempt the customer has seen, so the rails show again. */
  dismissedPaymentId: string | null;
  /** A crypto attempt's transfer from the local test wallet. */
  transferHash: string | null;
  /** What the buyer sent in the simulator for the current attempt. */
  sent: SentPayment | null;
  /** A proof is with the attestation service: show that until the attempt moves on. */
  verifyingSince: string | null;
  busy: boolean;
  error: string | null;
  /** The step that failed for a while (the service unavailable): offered again beside the error. */
  retry: (() => void) | null;
  /** Why this link can never work, once a call has said so: the page shows only that. */
  dead: string | null;
}

class CheckoutPage {
  readonly #root = document.getElementById('checkout')!;
  readonly #api: CheckoutApi;
  readonly #config: CheckoutPageConfig;
  #state!: PageState;
  /** What the screen shows, so a poll that changed nothing leaves the page (and a field being typed in) alone. */
  #shown = '';
  #countdown: number | undefined;
  /** When the page first saw an attempt still reserving its price, to stop waiting on it in time. */
  #reserving: { paymentId: string; since: number; timer: number | undefined } | null = null;
  #redirect: number | undefined;

  constructor(api: CheckoutApi, config: CheckoutPageConfig) {
    this.#api = api;
    this.#config = config;
  }

  async start(): Promise<void> {
    try {
      this.#state = {
        hosted: await this.#api.hostedOrder(),
        editingAmount: false,
        typedAmount: null,
        dismissedPaymentId: null,
        sent: null,
        transferHash: null,
        verifyingSince: null,
        busy: false,
        error: null,
        retry: null,
        dead: null,
      };
    } catch (error) {
      const dead = deadLink(error);
      if (dead) return show(this.#root, h('h1', {}, 'This checkout link does not work'), h('p', {}, dead));
      show(
        this.#root,
        h('h1', {}, 'This checkout could not load'),
        h('p', { role: 'alert' }, describe(error)),
        h('button', { type: 'button', class: 'primary', onclick: () => void this.start() }, 'Try again'),
      );
      return;
    }
    await this.#render();
    setInterval(() => void this.#poll(), POLL_MS);
  }

  async #poll(): Promise<void> {
    if (this.#state.busy) return;
    try {
      this.#state.hosted = await this.#api.hostedOrder();
      await this.#render();
    } catch {
      // A failed poll is retried on the next tick; the page keeps what it shows.
    }
  }

  async #act(what: () => Promise<unknown>): Promise<void> {
    this.#state.busy = true;
    this.#state.error = null;
    await this.#render(true);
    this.#state.retry = null;
    try {
      await what();
      this.#state.hosted = await this.#api.hostedOrder();
    } catch (error) {
      this.#state.dead = deadLink(error);
      this.#state.error = describe(error);
      if (isUnavailable(error)) this.#state.retry = () => void this.#act(what);
      announce(this.#state.dead ?? this.#state.error);
    } finally {
      this.#state.busy = false;
      await this.#render(true);
    }
  }

  async #render(force = false): Promise<void> {
    const { hosted } = this.#state;
    const payment = hosted.currentPayment;
    const view = this.#view();
    const key = JSON.stringify([
      view,
      hosted.order.status,
      hosted.order.requestedUsdcAmount,
      payment?.id,
      payment?.status,
      payment?.railIdentifier,
      payment?.errorCode,
      payment?.updatedAt,
      this.#state.error,
      this.#state.busy,
      Boolean(this.#state.sent),
      this.#state.dead,
    ]);
    // The theme follows every poll, so a change the merchant saves shows without a reload.
    applyTheme(document.documentElement, hosted.merchant?.checkoutTheme ?? null);
    if (!force && key === this.#shown) return;
    this.#shown = key;
    window.clearInterval(this.#countdown);
    switch (view) {
      case 'dead':
        return show(
          this.#root,
          this.#header(false),
          h('h1', {}, 'This checkout link does not work'),
          h('p', {}, this.#state.dead),
          this.#back('cancelUrl'),
          this.#footer(),
        );
      case 'paid':
        return this.#paid();
      case 'cancelled':
        return show(
          this.#root,
          this.#header(false),
          h('h1', {}, 'This order was cancelled'),
          h('p', {}, 'Nothing more can be paid on it.'),
          this.#back('cancelUrl'),
          this.#footer(),
        );
      case 'payment':
        return this.#payment(payment!);
      case 'ended':
        return this.#ended(payment!);
      case 'amount':
        return this.#amount();
      case 'rails':
        return this.#rails();
    }
  }

  #view(): 'dead' | 'paid' | 'cancelled' | 'payment' | 'ended' | 'amount' | 'rails' {
    const { order, currentPayment: payment } = this.#state.hosted;
    if (order.status === 'FULFILLED') return 'paid';
    if (this.#state.dead) return 'dead';
    if (order.status === 'CANCELLED') return 'cancelled';
    if (payment?.status === 'CREATED') return 'payment';
    if (payment && (payment.status === 'EXPIRED' || payment.status === 'FAILED') && this.#state.dismissedPaymentId !== payment.id) return 'ended';
    if (order.amountMode === 'OPEN' && (order.requestedUsdcAmount === null || (this.#state.editingAmount && !order.amountLock))) return 'amount';
    return 'rails';
  }

  /** The shop, and the way back to it (its cancelUrl) on every step where leaving is a choice. */
  #header(withBack = true): HTMLElement {
    const { merchant, order } = this.#state.hosted;
    return h(
      'header',
      { class: 'merchant' },
      withBack && order.cancelUrl
        ? h('a', { href: order.cancelUrl, class: 'back' }, h('span', { 'aria-hidden': 'true' }, '← '), `Back to ${this.#shop()}`)
        : null,
      merchant?.logoUrl ? h('img', { src: merchant.logoUrl, alt: '', class: 'logo', width: '40', height: '40' }) : null,
      h('span', { class: 'merchant-name' }, merchant?.name ?? 'Merchant'),
      merchant?.verified ? h('span', { class: 'badge', title: 'Verified merchant' }, 'Verified') : null,
      merchant?.environment === 'SANDBOX' ? h('span', { class: 'badge sandbox' }, 'Sandbox: no real money moves') : null,
    );
  }

  #shop(): string {
    return this.#state.hosted.merchant?.name ?? 'the shop';
  }

  #footer(): HTMLElement | null {
    return this.#state.hosted.merchant?.disableBranding ? null : h('footer', {}, 'Payments by Peer');
  }

  #errorBox(): HTMLElement | null {
    const { error, retry } = this.#state;
    if (!error) return null;
    return h(
      'div',
      { class: 'error-box' },
      h('p', { id: 'step-error', class: 'error', role: 'alert' }, error),
      retry ? h('button', { type: 'button', class: 'retry', onclick: retry }, 'Try again') : null,
    );
  }

  #owed(): string {
    const { order } = this.#state.hosted;
    if (order.requestedFiat) return formatAmount(order.requestedFiat.amount, order.requestedFiat.currency);
    const remaining = order.status === 'PARTIALLY_FULFILLED' ? order.remainingUsdcAmount : order.requestedUsdcAmount;
    return remaining === null ? '—' : formatAmount(remaining, 'USDC');
  }

  #amount(): void {
    const { order } = this.#state.hosted;
    const open = order.openAmount!;
    const refused = Boolean(this.#state.error);
    const input = h('input', {
      id: 'amount',
      name: 'amount',
      inputmode: 'decimal',
      autocomplete: 'off',
      required: true,
      'aria-describedby': refused ? 'amount-hint step-error' : 'amount-hint',
      'aria-invalid': refused ? 'true' : undefined,
      value: this.#state.typedAmount ?? open.savedInput?.amount ?? '',
    });
    const bounds =
      open.effectiveMin && open.effectiveMax
        ? `Between ${formatNumber(open.effectiveMin, open.currency)} and ${formatAmount(open.effectiveMax, open.currency)}.`
        : open.effectiveMin
          ? `At least ${formatAmount(open.effectiveMin, open.currency)}.`
          : '';
    const save = (typed: string) => {
      this.#state.typedAmount = typed;
      const read = readAmount(typed, open.currency);
      if ('problem' in read) {
        this.#state.error = read.problem;
        this.#state.retry = null;
        announce(read.problem);
        return void this.#render(true);
      }
      void this.#act(async () => {
        await this.#api.setAmount(read.amount, open.currency, order.amountVersion);
        this.#state.editingAmount = false;
        this.#state.typedAmount = null;
      });
    };
    const form = h(
      'form',
      { class: 'stack', onsubmit: (event: Event) => (event.preventDefault(), save(input.value)) },
      h('label', { for: 'amount' }, `Amount (${open.currency})`),
      input,
      h('p', { id: 'amount-hint', class: 'hint' }, bounds),
      open.presets.length > 0
        ? h(
            'div',
            { class: 'presets', role: 'group', 'aria-label': 'Suggested amounts' },
            ...open.presets.map((preset) => h('button', { type: 'button', class: 'preset', onclick: () => save(preset) }, formatAmount(preset, open.currency))),
          )
        : null,
      this.#errorBox(),
      h('button', { type: 'submit', class: 'primary', disabled: this.#state.busy }, 'Continue'),
    );
    show(this.#root, this.#header(), h('h1', {}, 'How much would you like to pay?'), form, this.#footer());
  }

  async #rails(): Promise<void> {
    const { order } = this.#state.hosted;
    const heading = h('h1', {}, order.status === 'PARTIALLY_FULFILLED' ? `${this.#owed()} left to pay` : `Pay ${this.#owed()}`);
    show(this.#root, this.#header(), heading, h('p', { class: 'loading' }, 'Finding the best prices…'));
    let quotes: Quote[];
    try {
      quotes = (await this.#api.quotes()).platforms;
    } catch (error) {
      this.#state.dead = deadLink(error);
      if (this.#state.dead) return void this.#render(true);
      const retry = isUnavailable(error) ? h('button', { type: 'button', class: 'retry', onclick: () => void this.#render(true) }, 'Try again') : null;
      show(
        this.#root,
        this.#header(),
        heading,
        h('div', { class: 'error-box' }, h('p', { class: 'error', role: 'alert' }, describe(error)), retry),
        this.#footer(),
      );
      return;
    }
    if (quotes.length === 0) {
      show(
        this.#root,
        this.#header(),
        heading,
        h('p', { role: 'alert' }, 'No payment method can take this order right now. Try again in a few minutes.'),
        this.#footer(),
      );
      return;
    }
    const options = quotes.map((quote, index) =>
      h(
        'label',
        { class: 'rail' },
        h('input', { type: 'radio', name: 'rail', value: String(index), checked: index === 0 }),
        h('span', { class: 'rail-name' }, railName(quote.platform)),
        h('span', { class: 'rail-amount' }, formatAmount(quote.displayAmount, quote.currency)),
        h('span', { class: 'rail-detail' }, isCrypto(quote.platform) ? 'Sent from your wallet, converted to USDC' : railDetail(quote)),
      ),
    );
    const pricesDiffer = new Set(quotes.map((quote) => `${quote.displayAmount} ${quote.currency}`)).size > 1;
    const bank = h('select', { id: 'bank', name: 'bank' }, ...Object.entries(ZELLE_BANKS).map(([id, name]) => h('option', { value: id }, name)));
    const bankField = h('div', { class: 'stack', hidden: quotes[0]!.platform !== 'zelle' }, h('label', { for: 'bank' }, 'Your bank'), bank);
    const chosen = () => quotes[Number(this.#root.querySelector<HTMLInputElement>('input[name=rail]:checked')?.value ?? 0)]!;
    const form = h(
      'form',
      {
        class: 'stack',
        onchange: () => (bankField.hidden = chosen().platform !== 'zelle'),
        onsubmit: (event: Event) => {
          event.preventDefault();
          const quote = chosen();
          void this.#act(() =>
            this.#api.createPayment(
              isCrypto(quote.platform)
                ? { rail: quote.platform, currency: quote.currency }
                : { rail: quote.platform, fiatCurrency: quote.currency, ...(quote.platform === 'zelle' ? { paymentMethodId: bank.value } : {}) },
            ),
          );
        },
      },
      h(
        'fieldset',
        pricesDiffer ? { 'aria-describedby': 'rail-prices' } : {},
        h('legend', {}, 'Pay with'),
        pricesDiffer
          ? h(
              'p',
              { id: 'rail-prices', class: 'hint' },
              'Prices differ by app: each payment is taken by an independent seller, who sets their own exchange rate and fee for that app.',
            )
          : null,
        ...options,
      ),
      bankField,
      this.#errorBox(),
      h('button', { type: 'submit', class: 'primary', disabled: this.#state.busy }, 'Continue'),
    );
    const change =
      order.amountMode === 'OPEN' && !order.amountLock
        ? h('button', { type: 'button', class: 'link', onclick: () => ((this.#state.editingAmount = true), void this.#render(true)) }, 'Change amount')
        : null;
    show(this.#root, this.#header(), heading, change, form, this.#footer());
  }

  #payment(payment: CheckoutPayment): void {
    const sandbox = payment.proofMode === 'SIMULATED';
    const signalled = sandbox || payment.railIdentifier !== null;
    const verifying = this.#state.verifyingSince !== null && (payment.updatedAt ?? '') <= this.#state.verifyingSince && !payment.errorCode;
    const amount = formatAmount(payment.paymentAmount, payment.currency);
    const countdown = h('p', { class: 'countdown', role: 'timer', 'aria-live': 'off' });
    const tick = () => (countdown.textContent = `Time left to pay: ${timeLeft(Date.parse(payment.quoteExpiresAt) - Date.now())}`);
    tick();
    this.#countdown = window.setInterval(tick, 1000);

    const crypto = isCrypto(payment.rail);
    const bank = payment.paymentMethodId ? ` (${ZELLE_BANKS[payment.paymentMethodId] ?? payment.paymentMethodId})` : '';
    const details = h(
      'dl',
      { class: 'pay-details' },
      h('dt', {}, 'Send exactly'),
      h('dd', { class: 'copyable' }, h('span', { class: 'value amount', 'data-testid': 'pay-amount' }, amount), copyButton('amount', payment.paymentAmount)),
      h('dt', {}, crypto ? `To this address, on ${chainName(payment.rail)}` : `To, on ${railName(payment.rail)}${bank}`),
      h(
        'dd',
        { class: 'copyable' },
        h('span', { class: `value pay-to${crypto ? ' mono' : ''}`, 'data-testid': 'pay-to' }, payment.payTo),
        copyButton(crypto ? 'address' : 'recipient', payment.payTo),
      ),
      payment.suggestedMemo ? h('dt', {}, payment.memoPolicy === 'REQUIRED' ? 'Write this in the note (required)' : 'Note (optional)') : null,
      payment.suggestedMemo
        ? h('dd', { class: 'copyable' }, h('span', { class: 'value memo' }, payment.suggestedMemo), copyButton('note', payment.suggestedMemo))
        : null,
    );
    const actions: HTMLElement[] = [];
    const failed = payment.errorCode
      ? h('p', { class: 'error', role: 'alert' }, `We could not verify your payment: ${payment.errorMessage ?? payment.errorCode}. Check it and try again.`)
      : null;
    if (!signalled) {
      actions.push(this.#reservingNotice(payment));
    } else if (verifying) {
      actions.push(h('p', { class: 'loading', role: 'status' }, 'Verifying your payment…'));
    } else if (crypto && !sandbox) {
      actions.push(this.#cryptoActions(payment));
    } else if (sandbox) {
      actions.push(
        h(
          'button',
          { type: 'button', class: 'primary', disabled: this.#state.busy, onclick: () => void this.#act(() => this.#api.step(payment.id, 'simulate')) },
          'Simulate payment',
        ),
      );
    } else {
      if (this.#config.simulatorUrl && !this.#state.sent) {
        actions.push(
          h(
            'section',
            { class: 'simulator', 'aria-labelledby': 'simulator-title' },
            h('h2', { id: 'simulator-title' }, `Local ${railName(payment.rail)} simulator`),
            h('p', {}, 'This node pays through a stand-in for the payment app. Send the payment from a test account:'),
            h(
              'button',
              {
                type: 'button',
                disabled: this.#state.busy,
                onclick: () => void this.#act(async () => (this.#state.sent = await payInSimulator(this.#config.simulatorUrl!, payment))),
              },
              `Send ${amount} in the simulator`,
            ),
          ),
        );
      }
      if (this.#state.sent) actions.push(h('p', { class: 'sent', role: 'status' }, `Sent in the simulator (payment ${this.#state.sent.paymentId}).`));
      actions.push(
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            disabled: this.#state.busy || (Boolean(this.#config.simulatorUrl) && !this.#state.sent),
            onclick: () => void this.#act(() => this.#paidIt(payment)),
          },
          'I’ve paid',
        ),
      );
    }
    actions.push(
      h(
        'button',
        { type: 'button', class: 'link', disabled: this.#state.busy || verifying, onclick: () => void this.#act(() => this.#api.step(payment.id, 'cancel')) },
        'Choose another way to pay',
      ),
    );
    show(
      this.#root,
      this.#header(),
      h('h1', {}, `Pay with ${railName(payment.rail)}`),
      details,
      signalled && !sandbox ? this.#scan(payment) : null,
      countdown,
      failed,
      this.#errorBox(),
      ...actions,
      this.#footer(),
    );
  }

  /** The spinner while the price is reserved, until it has taken longer than it ever should: then words, never an endless wait. */
  #reservingNotice(payment: CheckoutPayment): HTMLElement {
    if (this.#reserving?.paymentId !== payment.id) {
      window.clearTimeout(this.#reserving?.timer);
      this.#reserving = { paymentId: payment.id, since: Date.now(), timer: undefined };
    }
    const waited = Date.now() - this.#reserving.since;
    if (waited >= RESERVE_PATIENCE_MS) {
      return h(
        'p',
        { class: 'error', role: 'alert' },
        `Reserving your price is taking longer than it should. ${PAYMENTS_UNAVAILABLE} You can also choose another way to pay.`,
      );
    }
    window.clearTimeout(this.#reserving.timer);
    this.#reserving.timer = window.setTimeout(() => void this.#render(true), RESERVE_PATIENCE_MS - waited);
    return h('p', { class: 'loading', role: 'status' }, 'Reserving your price…');
  }

  /** A QR code of the deposit address, or of the app's pay link for the recipient, where the app has one. */
  #scan(payment: CheckoutPayment): HTMLElement | null {
    const link = payLink({ rail: payment.rail, payTo: payment.payTo, amount: payment.paymentAmount, currency: payment.currency });
    if (!link) return null;
    const crypto = isCrypto(payment.rail);
    const caption = crypto ? 'Scan with your wallet to fill in the address.' : `Scan with your phone to open ${railName(payment.rail)} at this recipient.`;
    return h(
      'figure',
      { class: 'scan' },
      qrCode(link, crypto ? `QR code of the address ${payment.payTo}` : `QR code opening ${railName(payment.rail)} for ${payment.payTo}`),
      h('figcaption', {}, caption),
    );
  }

  /**
   * A crypto attempt needs no proof: the provider sees the transfer arrive and the page sees
   * the payment settle. In the embedded default, a test wallet on the local chain sends it.
   */
  #cryptoActions(payment: CheckoutPayment): HTMLElement {
    const url = this.#config.conversionSimulatorUrl;
    const amount = formatAmount(payment.paymentAmount, payment.currency);
    if (this.#state.transferHash)
      return h('p', { class: 'loading', role: 'status' }, `Transfer sent (${this.#state.transferHash.slice(0, 10)}…); waiting for the conversion…`);
    return h(
      'section',
      { class: 'simulator', 'aria-labelledby': 'wallet-title' },
      h('h2', { id: 'wallet-title' }, 'Send from your wallet'),
      h('p', {}, `Send exactly ${amount} to the address above. The payment completes on its own once the transfer arrives.`),
      url
        ? h(
            'button',
            {
              type: 'button',
              disabled: this.#state.busy,
              onclick: () => void this.#act(async () => (this.#state.transferHash = (await sendFromTestWallet(url, payment)).transactionHash)),
            },
            `Send ${amount} from the local test wallet`,
          )
        : h(
            'button',
            { type: 'button', class: 'primary', disabled: this.#state.busy, onclick: () => void this.#act(() => this.#api.step(payment.id, 'sent')) },
            'I’ve sent it',
          ),
    );
  }

  /** With a payment sent in the simulator, its proof; otherwise the customer's word, which locks the amount. */
  async #paidIt(payment: CheckoutPayment): Promise<void> {
    if (!this.#state.sent) {
      await this.#api.step(payment.id, 'sent');
      return;
    }
    const proof = await sealProof(this.#config, payment, this.#state.sent);
    this.#state.verifyingSince = (await this.#api.submitProof(payment.id, proof)).updatedAt;
    announce('Verifying your payment');
  }

  #ended(payment: CheckoutPayment): void {
    const expired = payment.status === 'EXPIRED';
    show(
      this.#root,
      this.#header(),
      h('h1', {}, expired ? 'This price expired' : 'This payment could not go ahead'),
      h(
        'p',
        {},
        expired
          ? 'The time to pay ran out before a payment was confirmed. If you already sent money, it will still count once it is confirmed.'
          : (payment.errorMessage ?? 'Something went wrong starting it.'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'primary',
          onclick: () => ((this.#state.dismissedPaymentId = payment.id), (this.#state.sent = null), (this.#state.transferHash = null), void this.#render(true)),
        },
        'Try again',
      ),
      this.#footer(),
    );
  }

  #paid(): void {
    const { order } = this.#state.hosted;
    announce('Paid');
    show(
      this.#root,
      this.#header(false),
      h('h1', {}, 'Paid'),
      h('p', {}, `Thank you. ${this.#shop()} has received your payment.`),
      receipt(this.#state.hosted, this.#shop()),
      order.successUrl ? h('p', { class: 'hint' }, `Taking you back to ${this.#shop()} in a few seconds.`) : null,
      this.#back('successUrl'),
      this.#footer(),
    );
    if (order.successUrl && this.#redirect === undefined) this.#redirect = window.setTimeout(() => window.location.assign(order.successUrl!), REDIRECT_MS);
  }

  #back(which: 'successUrl' | 'cancelUrl'): HTMLElement | null {
    const url = this.#state.hosted.order[which];
    return url ? h('a', { href: url, class: 'primary' }, `Return to ${this.#shop()}`) : null;
  }
}

/** A fiat rail's line under its price: how likely the payment is to go through, and how far the price sits above the exchange rate. */
function railDetail(quote: Quote): string {
  const spread = quote.spreadPercentage > 0 ? `Price includes ${quote.spreadPercentage.toFixed(2)}% over the exchange rate.` : 'Priced at the exchange rate.';
  return `${recipientNote(quote.recipientRating)}. ${spread}`;
}

function start(): void {
  const params = new URLSearchParams(window.location.search);
  const config = JSON.parse(document.getElementById('checkout-config')!.textContent!) as CheckoutPageConfig;
  void new CheckoutPage(new CheckoutApi(params.get('order') ?? '', params.get('token') ?? ''), config).start();
}

start();
