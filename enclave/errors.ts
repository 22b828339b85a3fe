/**
 * A refusal of the attestation service: a code callers branch on, the HTTP status the
 * HTTP surface answers with (the gRPC surface maps it to a status of its own), and a
 * message safe to show: it never carries session material or the platform's raw answer;
 * a refused payment's own figures (amount, currency, date) are told to its payer.
 */
export class AttestationError extends Error {
  constructor(
    readonly code: string,
    readonly status: 400 | 403 | 404 | 409 | 422 | 502 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'AttestationError';
  }
}

/** The payment does not prove the intent paid; the code names the rule it broke. */
export class PaymentRefusedError extends AttestationError {
  constructor(code: string, message: string, status: 409 | 422 = 422) {
    super(code, status, message);
    this.name = 'PaymentRefusedError';
  }
}
