/**
 * The hosted checkout page: the order as the hosted read shows it, then the customer's
 * steps. An open amount is typed or picked first; then a rail with its quote; then the
 * payment (whom to pay, the exact amount, the memo, a countdown to the quote's expiry),
 * proven in the simulator or simulated in the sandbox; then Paid, with the way back to
 * the merchant, or Expired, with another try. The hosted read is polled, so the page
 * follows what happens elsewhere (the chain settling, the window closing).
 */
import { announce, h, show } from './dom.js';
import { CheckoutApi, CheckoutError, type CheckoutPayment, type HostedOrder, type Quote } from './api.js';
import { payInSimulator, sealProof, sendFromTestWallet, type SentPayment } from './buyer-proof.js';
import type { CheckoutPageConfig } from './page-config.js';

const POLL_MS = 1_500;
const REDIRECT_MS = 4_000;
const RAIL_NAMES: Record<string, string> = {
  venmo: 'Venmo',
  cashapp: 'Cash App',
  zelle: 'Zelle',
  paypal: 'PayPal',
  wise: 'Wise',
  revolut: 'Revolut',
  monzo: 'Monzo',
  chime: 'Chime',
};
const ZELLE_BANKS: Record<string, string> = { 'zelle-chase': 'Chase', 'zelle-bofa': 'Bank of America', 'zelle-citi': 'Citi' };

const CHAIN_NAMES: Record<string, string> = { '1': 'Ethereum', '10': 'Optimism', '56': 'BNB Chain', '137': 'Polygon', '8453': 'Base', '42161': 'Arbitrum' };
const isCrypto = (rail: string) => rail.startsWith('relay_');
const railName = (rail: string) => {
  if (!isCrypto(rail)) return RAIL_NAMES[rail] ?? rail;
  const chainId = rail.slice('relay_'.length);
  return `Crypto on ${CHAIN_NAMES[chainId] ?? `chain ${chainId}`}`;
};

interface PageState {
  hosted: HostedOrder;
  /** The amount step is shown again when the customer asks to change a saved amount. */
  editingAmount: boolean;
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
}

class CheckoutPage {
  readonly #root = document.getElementById('checkout')!;
  readonly #api: CheckoutApi;
  readonly #config: CheckoutPageConfig;
  #state!: PageState;
  /** What the screen shows, so a poll that changed nothing leaves the page (and a field being typed in) alone. */
  #shown = '';
  #countdown: number | undefined;

  constructor(api: CheckoutApi, config: CheckoutPageConfig) {
    this.#api = api;
    this.#config = config;
  }

  async start(): Promise<void> {
    try {
      this.#state = { hosted: await this.#api.hostedOrder(), editingAmount: false, dismissedPaymentId: null, sent: null, transferHash: null, verifyingSince: null, busy: false, error: null };
    } catch (error) {
      show(this.#root, h('h1', {}, 'This checkout link does not work'), h('p', {}, error instanceof CheckoutError && error.status === 404 ? 'No order has this link. Ask the merchant for a new one.' : 'Try again in a moment.'));
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
    try {
      await what();
      this.#state.hosted = await this.#api.hostedOrder();
    } catch (error) {
      this.#state.error = describe(error);
      announce(this.#state.error);
    } finally {
      this.#state.busy = false;
      await this.#render(true);
    }
  }

  async #render(force = false): Promise<void> {
    const { hosted } = this.#state;
    const payment = hosted.currentPayment;
    const view = this.#view();
    const key = JSON.stringify([view, hosted.order.status, hosted.order.requestedUsdcAmount, payment?.id, payment?.status, payment?.railIdentifier, payment?.errorCode, payment?.updatedAt, this.#state.error, this.#state.busy, Boolean(this.#state.sent)]);
    if (!force && key === this.#shown) return;
    this.#shown = key;
    window.clearInterval(this.#countdown);
    switch (view) {
      case 'paid':
        return this.#paid();
      case 'cancelled':
        return show(this.#root, this.#header(), h('h1', {}, 'This order was cancelled'), h('p', {}, 'Nothing more can be paid on it.'), this.#back('cancelUrl'));
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

  #view(): 'paid' | 'cancelled' | 'payment' | 'ended' | 'amount' | 'rails' {
    const { order, currentPayment: payment } = this.#state.hosted;
    if (order.status === 'FULFILLED') return 'paid';
    if (order.status === 'CANCELLED') return 'cancelled';
    if (payment?.status === 'CREATED') return 'payment';
    if (payment && (payment.status === 'EXPIRED' || payment.status === 'FAILED') && this.#state.dismissedPaymentId !== payment.id) return 'ended';
    if (order.amountMode === 'OPEN' && (order.requestedUsdcAmount === null || (this.#state.editingAmount && !order.amountLock))) return 'amount';
    return 'rails';
  }

  #header(): HTMLElement {
    const { merchant } = this.#state.hosted;
    return h(
      'header',
      { class: 'merchant' },
      merchant?.logoUrl ? h('img', { src: merchant.logoUrl, alt: '', class: 'logo', width: '40', height: '40' }) : null,
      h('span', { class: 'merchant-name' }, merchant?.name ?? 'Merchant'),
      merchant?.verified ? h('span', { class: 'badge', title: 'Verified merchant' }, 'Verified') : null,
      merchant?.environment === 'SANDBOX' ? h('span', { class: 'badge sandbox' }, 'Sandbox: no real money moves') : null,
    );
  }

  #footer(): HTMLElement | null {
    return this.#state.hosted.merchant?.disableBranding ? null : h('footer', {}, 'Payments by Peer');
  }

  #errorBox(): HTMLElement | null {
    return this.#state.error ? h('p', { class: 'error', role: 'alert' }, this.#state.error) : null;
  }

  #owed(): string {
    const { order } = this.#state.hosted;
    if (order.requestedFiat) return `${order.requestedFiat.amount} ${order.requestedFiat.currency}`;
    const remaining = order.status === 'PARTIALLY_FULFILLED' ? order.remainingUsdcAmount : order.requestedUsdcAmount;
    return `${remaining ?? '—'} USDC`;
  }

  #amount(): void {
    const { order } = this.#state.hosted;
    const open = order.openAmount!;
    const input = h('input', { id: 'amount', name: 'amount', inputmode: 'decimal', autocomplete: 'off', required: true, 'aria-describedby': 'amount-hint', value: open.savedInput?.amount ?? '' });
    const bounds = open.effectiveMin && open.effectiveMax ? `Between ${open.effectiveMin} and ${open.effectiveMax} ${open.currency}.` : open.effectiveMin ? `At least ${open.effectiveMin} ${open.currency}.` : '';
    const save = (amount: string) => void this.#act(async () => {
      await this.#api.setAmount(amount.trim(), open.currency, order.amountVersion);
      this.#state.editingAmount = false;
    });
    const form = h(
      'form',
      { class: 'stack', onsubmit: (event: Event) => (event.preventDefault(), save(input.value)) },
      h('label', { for: 'amount' }, `Amount (${open.currency})`),
      input,
      h('p', { id: 'amount-hint', class: 'hint' }, bounds),
      open.presets.length > 0
        ? h('div', { class: 'presets', role: 'group', 'aria-label': 'Suggested amounts' }, ...open.presets.map((preset) => h('button', { type: 'button', class: 'preset', onclick: () => save(preset) }, `${preset} ${open.currency}`)))
        : null,
      this.#errorBox(),
      h('button', { type: 'submit', class: 'primary', disabled: this.#state.busy }, 'Continue'),
    );
    show(this.#root, this.#header(), h('h1', {}, 'How much would you like to pay?'), form, this.#footer());
  }

  async #rails(): Promise<void> {
    const { order } = this.#state.hosted;
    const heading = h('h1', {}, order.status === 'PARTIALLY_FULFILLED' ? `${order.remainingUsdcAmount} USDC left to pay` : `Pay ${this.#owed()}`);
    show(this.#root, this.#header(), heading, h('p', { class: 'loading' }, 'Finding the best prices…'));
    let quotes: Quote[];
    try {
      quotes = (await this.#api.quotes()).platforms;
    } catch (error) {
      show(this.#root, this.#header(), heading, h('p', { class: 'error', role: 'alert' }, describe(error)), this.#footer());
      return;
    }
    if (quotes.length === 0) {
      show(this.#root, this.#header(), heading, h('p', { role: 'alert' }, 'No payment method can take this order right now. Try again in a few minutes.'), this.#footer());
      return;
    }
    const options = quotes.map((quote, index) =>
      h(
        'label',
        { class: 'rail' },
        h('input', { type: 'radio', name: 'rail', value: String(index), checked: index === 0 }),
        h('span', { class: 'rail-name' }, railName(quote.platform)),
        h('span', { class: 'rail-amount' }, `${quote.displayAmount} ${quote.currency}`),
        h('span', { class: 'rail-detail' }, isCrypto(quote.platform) ? 'Sent from your wallet, converted to USDC' : `Recipient rated ${quote.recipientRating.toFixed(1)} of 5`),
      ),
    );
    const bank = h('select', { id: 'bank', name: 'bank' }, ...Object.entries(ZELLE_BANKS).map(([id, name]) => h('option', { value: id }, name)));
    const bankField = h('div', { class: 'stack', hidden: quotes[0]!.platform !== 'zelle' }, h('label', { for: 'bank' }, 'Your bank'), bank);
    const chosen = () => quotes[Number((this.#root.querySelector<HTMLInputElement>('input[name=rail]:checked'))?.value ?? 0)]!;
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
      h('fieldset', {}, h('legend', {}, 'Pay with'), ...options),
      bankField,
      this.#errorBox(),
      h('button', { type: 'submit', class: 'primary', disabled: this.#state.busy }, 'Continue'),
    );
    const change = order.amountMode === 'OPEN' && !order.amountLock ? h('button', { type: 'button', class: 'link', onclick: () => ((this.#state.editingAmount = true), void this.#render(true)) }, 'Change amount') : null;
    show(this.#root, this.#header(), heading, change, form, this.#footer());
  }

  #payment(payment: CheckoutPayment): void {
    const sandbox = payment.proofMode === 'SIMULATED';
    const signalled = sandbox || payment.railIdentifier !== null;
    const verifying = this.#state.verifyingSince !== null && (payment.updatedAt ?? '') <= this.#state.verifyingSince && !payment.errorCode;
    const countdown = h('p', { class: 'countdown', role: 'timer', 'aria-live': 'off' });
    const tick = () => {
      const left = Math.max(0, Date.parse(payment.quoteExpiresAt) - Date.now());
      countdown.textContent = `Time left to pay: ${Math.floor(left / 60_000)}:${String(Math.floor((left % 60_000) / 1000)).padStart(2, '0')}`;
    };
    tick();
    this.#countdown = window.setInterval(tick, 1000);

    const details = h(
      'dl',
      { class: 'pay-details' },
      h('dt', {}, 'Send exactly'),
      h('dd', { class: 'amount', 'data-testid': 'pay-amount' }, `${payment.paymentAmount} ${payment.currency}`),
      h('dt', {}, isCrypto(payment.rail) ? `To this address, on ${railName(payment.rail).replace('Crypto on ', '')}` : `To, on ${railName(payment.rail)}${payment.paymentMethodId ? ` (${ZELLE_BANKS[payment.paymentMethodId] ?? payment.paymentMethodId})` : ''}`),
      h('dd', { class: 'pay-to', 'data-testid': 'pay-to' }, payment.payTo),
      payment.suggestedMemo ? h('dt', {}, payment.memoPolicy === 'REQUIRED' ? 'Write this in the note (required)' : 'Note (optional)') : null,
      payment.suggestedMemo ? h('dd', { class: 'memo' }, payment.suggestedMemo) : null,
    );
    const actions: HTMLElement[] = [];
    const failed = payment.errorCode ? h('p', { class: 'error', role: 'alert' }, `We could not verify your payment: ${payment.errorMessage ?? payment.errorCode}. Check it and try again.`) : null;
    if (!signalled) {
      actions.push(h('p', { class: 'loading' }, 'Reserving your price…'));
    } else if (verifying) {
      actions.push(h('p', { class: 'loading', role: 'status' }, 'Verifying your payment…'));
    } else if (isCrypto(payment.rail) && !sandbox) {
      actions.push(this.#cryptoActions(payment));
    } else if (sandbox) {
      actions.push(h('button', { type: 'button', class: 'primary', disabled: this.#state.busy, onclick: () => void this.#act(() => this.#api.step(payment.id, 'simulate')) }, 'Simulate payment'));
    } else {
      if (this.#config.simulatorUrl && !this.#state.sent) {
        actions.push(
          h(
            'section',
            { class: 'simulator', 'aria-labelledby': 'simulator-title' },
            h('h2', { id: 'simulator-title' }, `Local ${railName(payment.rail)} simulator`),
            h('p', {}, 'This node pays through a stand-in for the payment app. Send the payment from a test account:'),
            h('button', { type: 'button', disabled: this.#state.busy, onclick: () => void this.#act(async () => (this.#state.sent = await payInSimulator(this.#config.simulatorUrl!, payment))) }, `Send ${payment.paymentAmount} ${payment.currency} in the simulator`),
          ),
        );
      }
      if (this.#state.sent) actions.push(h('p', { class: 'sent', role: 'status' }, `Sent in the simulator (payment ${this.#state.sent.paymentId}).`));
      actions.push(h('button', { type: 'button', class: 'primary', disabled: this.#state.busy || (Boolean(this.#config.simulatorUrl) && !this.#state.sent), onclick: () => void this.#act(() => this.#paidIt(payment)) }, 'I’ve paid'));
    }
    actions.push(h('button', { type: 'button', class: 'link', disabled: this.#state.busy || verifying, onclick: () => void this.#act(() => this.#api.step(payment.id, 'cancel')) }, 'Choose another way to pay'));
    show(this.#root, this.#header(), h('h1', {}, `Pay with ${railName(payment.rail)}`), details, countdown, failed, this.#errorBox(), ...actions, this.#footer());
  }

  /**
   * A crypto attempt needs no proof: the provider sees the transfer arrive and the page sees
   * the payment settle. In the embedded default, a test wallet on the local chain sends it.
   */
  #cryptoActions(payment: CheckoutPayment): HTMLElement {
    const url = this.#config.conversionSimulatorUrl;
    if (this.#state.transferHash) return h('p', { class: 'loading', role: 'status' }, `Transfer sent (${this.#state.transferHash.slice(0, 10)}…); waiting for the conversion…`);
    return h(
      'section',
      { class: 'simulator', 'aria-labelledby': 'wallet-title' },
      h('h2', { id: 'wallet-title' }, 'Send from your wallet'),
      h('p', {}, `Send exactly ${payment.paymentAmount} ${payment.currency} to the address above. The payment completes on its own once the transfer arrives.`),
      url
        ? h(
            'button',
            { type: 'button', disabled: this.#state.busy, onclick: () => void this.#act(async () => (this.#state.transferHash = (await sendFromTestWallet(url, payment)).transactionHash)) },
            `Send ${payment.paymentAmount} ${payment.currency} from the local test wallet`,
          )
        : h('button', { type: 'button', class: 'primary', disabled: this.#state.busy, onclick: () => void this.#act(() => this.#api.step(payment.id, 'sent')) }, 'I’ve sent it'),
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
      h('p', {}, expired ? 'The time to pay ran out before a payment was confirmed. If you already sent money, it will still count once it is confirmed.' : (payment.errorMessage ?? 'Something went wrong starting it.')),
      h('button', { type: 'button', class: 'primary', onclick: () => ((this.#state.dismissedPaymentId = payment.id), (this.#state.sent = null), (this.#state.transferHash = null), void this.#render(true)) }, 'Try again'),
      this.#footer(),
    );
  }

  #paid(): void {
    const { order } = this.#state.hosted;
    announce('Paid');
    show(this.#root, this.#header(), h('h1', {}, 'Paid'), h('p', {}, `Thank you. ${this.#state.hosted.merchant?.name ?? 'The merchant'} has received your payment.`), this.#back('successUrl'), this.#footer());
    if (order.successUrl) window.setTimeout(() => window.location.assign(order.successUrl!), REDIRECT_MS);
  }

  #back(which: 'successUrl' | 'cancelUrl'): HTMLElement | string {
    const url = this.#state.hosted.order[which];
    return url ? h('a', { href: url, class: 'primary' }, `Return to ${this.#state.hosted.merchant?.name ?? 'the merchant'}`) : '';
  }
}

function describe(error: unknown): string {
  if (!(error instanceof CheckoutError)) return error instanceof Error ? error.message : 'Something went wrong. Try again.';
  switch (error.code) {
    case 'NO_LIQUIDITY':
      return 'No one can take this payment method right now. Try another one.';
    case 'AMOUNT_OUT_OF_RANGE':
    case 'AMOUNT_LOCKED':
    case 'AMOUNT_CONFLICT':
      return error.message;
    case 'PAYMENT_NOT_OPEN':
      return 'This payment already ended.';
    default:
      return error.message;
  }
}

function start(): void {
  const params = new URLSearchParams(window.location.search);
  const config = JSON.parse(document.getElementById('checkout-config')!.textContent!) as CheckoutPageConfig;
  void new CheckoutPage(new CheckoutApi(params.get('order') ?? '', params.get('token') ?? ''), config).start();
}

start();
