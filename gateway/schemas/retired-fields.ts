/**
 * Request fields an older version of the API took, with what a current client sends
 * instead. A body holding one is refused like any unknown field, but the field's own
 * error says where it went, so a v0 integration learns the v1 name from the answer.
 */

/** Document 1, versioning item 3: the create fields of version 0. */
export const V0_CREATE_ORDER_FIELDS: Readonly<Record<string, string>> = {
  amountUsdc: 'was renamed in v1: send requestedUsdcAmount',
  recipientAddress: 'was renamed in v1: send destinationAddress',
  enabledPaymentPlatforms: 'was renamed in v1: send enabledRails',
  metadata: 'was renamed in v1: send notes',
  fiatAmount: 'was renamed in v1: send requestedFiatAmount',
  fiatCurrency: 'was renamed in v1: send requestedFiatCurrency',
  merchantId: 'was removed in v1: the merchant is the one the API key belongs to',
  checkoutMode: 'was removed in v1',
  maxFeePercentage: 'was removed in v1: fee limits are dashboard settings',
};
