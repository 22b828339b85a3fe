/**
 * Payment rails a customer can pay an order over. The fiat rails are the payment
 * platforms the attestation service verifies (document 3); crypto rails arrive with
 * the payment issue.
 */
export const FIAT_RAILS = ['venmo', 'cashapp', 'zelle', 'paypal', 'wise', 'revolut', 'monzo', 'chime'] as const;
