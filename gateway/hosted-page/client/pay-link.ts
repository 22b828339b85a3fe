/**
 * What a QR code on the payment step opens on the customer's phone: on a crypto rail the
 * deposit address (every wallet's scanner reads a bare address), on a payment app its
 * public pay link for the recipient, where the app has one that takes the recipient as
 * the API names them. Zelle, Wise and Chime have none: their QR codes are made inside the
 * app, so the page shows the handle to copy instead.
 */
export interface PayLinkInput {
  rail: string;
  payTo: string;
  amount: string;
  currency: string;
}

const EMAIL = /@/;

export function payLink({ rail, payTo, amount, currency }: PayLinkInput): string | null {
  if (rail.startsWith('relay_')) return payTo;
  const handle = encodeURIComponent(payTo.replace(/^[@$]/, ''));
  switch (rail) {
    case 'venmo':
      // Venmo names a recipient by user id; its own QR codes open this address.
      return /^\d+$/.test(payTo) ? `https://venmo.com/code?user_id=${handle}` : `https://venmo.com/u/${handle}`;
    case 'cashapp':
      return `https://cash.app/$${handle}/${amount}`;
    case 'paypal':
      // A PayPal.me name takes an amount; an email address has no link.
      return EMAIL.test(payTo) ? null : `https://paypal.me/${handle}/${amount}${currency}`;
    case 'revolut':
      return `https://revolut.me/${handle}`;
    case 'monzo':
      return `https://monzo.me/${handle}/${amount}`;
    default:
      return null;
  }
}
