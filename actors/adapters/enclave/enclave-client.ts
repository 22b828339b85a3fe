/**
 * The node's client of the attestation service (gRPC). Every call carries a deadline;
 * grpc-js retries only UNAVAILABLE, the one status the service answers for an outage, so
 * a refusal (INVALID_ARGUMENT, FAILED_PRECONDITION, ALREADY_EXISTS) is never sent twice.
 * The service is trusted only once its attestation document, fetched with a fresh nonce,
 * passes the check the client is given (the measurement and the registered signer), at
 * connect and again whenever an answer comes from another signer than the one checked:
 * an enclave that restarted with another key is checked before its answer is used.
 * Every call is counted and timed by method and outcome (`peer_attestation_calls_total`).
 */
import { randomBytes } from 'node:crypto';
import { Metadata, credentials, status, type CallOptions, type ServiceError } from '@grpc/grpc-js';
import {
  EnclaveServiceClient,
  type AttestationDocument,
  type ListSellerCredentialsResponse,
  type RegisterIdentityRequest,
  type RegisterIdentityResponse,
  type ResolveSellerPaymentRequest,
  type ResolveSellerPaymentResponse,
  type VerifyDisputeRequest,
  type VerifyDisputeResponse,
  type VerifyPaymentProofRequest,
  type VerifyPaymentProofResponse,
  type VerifyPaymentRequest,
  type VerifyPaymentResponse,
} from '../../../proto/gen/peer/enclave/v1/enclave.js';
import { withDeadline } from '../../grpc-call.js';
import { noMetrics, type AttestationMethod, type NodeMetrics } from '../../metrics/node-metrics.js';

const RETRY_POLICY = {
  methodConfig: [
    {
      name: [{ service: 'peer.enclave.v1.EnclaveService' }],
      retryPolicy: { maxAttempts: 4, initialBackoff: '0.2s', maxBackoff: '2s', backoffMultiplier: 2, retryableStatusCodes: ['UNAVAILABLE'] },
    },
  ],
};

/** A payment read goes out to the platform and back: a few seconds, not the indexer's. */
export const ENCLAVE_DEADLINE_MS = 15_000;

/** Throws unless `document` is from the trusted enclave and was signed for `nonce`. */
export type DocumentCheck = (document: AttestationDocument, nonce: `0x${string}`) => Promise<void>;

export class EnclaveClient {
  readonly #client: EnclaveServiceClient;
  readonly #check: DocumentCheck;
  readonly #deadlineMs: number;
  readonly #metrics: Pick<NodeMetrics, 'attestationCall'>;
  /** Errors that mean the service is not the one trusted (its document failed the check, or another signer answered). */
  readonly #untrusted = new WeakSet<object>();
  #signer: string | null = null;

  private constructor(address: string, check: DocumentCheck, deadlineMs: number, metrics: Pick<NodeMetrics, 'attestationCall'>) {
    this.#client = new EnclaveServiceClient(address, credentials.createInsecure(), {
      'grpc.service_config': JSON.stringify(RETRY_POLICY),
      'grpc.enable_retries': 1,
    });
    this.#check = check;
    this.#deadlineMs = deadlineMs;
    this.#metrics = metrics;
  }

  /** Connects to the service at `address` (host:port) and checks its document before anything else. */
  static async connect(
    address: string,
    check: DocumentCheck,
    options: { deadlineMs?: number; metrics?: Pick<NodeMetrics, 'attestationCall'> } = {},
  ): Promise<EnclaveClient> {
    const client = new EnclaveClient(address, check, options.deadlineMs ?? ENCLAVE_DEADLINE_MS, options.metrics ?? noMetrics);
    try {
      await client.#verify();
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  }

  /** The signer whose document this client checked last. */
  get signer(): string | null {
    return this.#signer;
  }

  verifyPayment(request: VerifyPaymentRequest): Promise<VerifyPaymentResponse> {
    return this.#signed('verifyPayment', (options, done) => this.#client.verifyPayment(request, new Metadata(), options, done));
  }

  verifyPaymentProof(request: VerifyPaymentProofRequest): Promise<VerifyPaymentProofResponse> {
    return this.#signed('verifyPaymentProof', (options, done) => this.#client.verifyPaymentProof(request, new Metadata(), options, done));
  }

  /**
   * Seller path: the intent's payee's kept platform session reads the payment named by the
   * receipt id in `params` (PAYMENT_ID) and the service attests it, as verifyPayment does,
   * with source seller-tee. Refusals reject with the service's code in the `error-code` trailer.
   */
  resolveSellerPayment(request: ResolveSellerPaymentRequest): Promise<ResolveSellerPaymentResponse> {
    return this.#signed('resolveSellerPayment', (options, done) => this.#client.resolveSellerPayment(request, new Metadata(), options, done));
  }

  registerIdentity(request: RegisterIdentityRequest): Promise<RegisterIdentityResponse> {
    return this.#signed('registerIdentity', (options, done) => this.#client.registerIdentity(request, new Metadata(), options, done));
  }

  verifyDispute(request: VerifyDisputeRequest): Promise<VerifyDisputeResponse> {
    return this.#signed('verifyDispute', (options, done) => this.#client.verifyDispute(request, new Metadata(), options, done));
  }

  /** The active seller credentials, by `<platform>:<payeeDetails>`: not signed, it moves no money (the orderbook shows it). */
  async sellerCredentials(): Promise<Map<string, { active: boolean; expiresAt: number }>> {
    const { credentials } = await this.#counted('listSellerCredentials', () =>
      withDeadline<ListSellerCredentialsResponse>((options, done) => this.#client.listSellerCredentials({}, new Metadata(), options, done), this.#deadlineMs),
    );
    return new Map(
      credentials.map((credential) => [`${credential.platform}:${credential.payeeDetails}`, { active: true, expiresAt: Number(credential.expiresAt) }]),
    );
  }

  /** Fetches the service's document again with a fresh nonce and checks it: whether the trusted service answers now. */
  checkDocument(): Promise<void> {
    return this.#verify();
  }

  close(): void {
    this.#client.close();
  }

  /** A signed answer, used only once its signer's document has passed the check. */
  #signed<Res extends { signer: string }>(
    method: AttestationMethod,
    invoke: (options: Partial<CallOptions>, done: (error: ServiceError | null, response: Res) => void) => unknown,
  ): Promise<Res> {
    return this.#counted(method, async () => {
      const response = await withDeadline(invoke, this.#deadlineMs);
      if (response.signer.toLowerCase() !== this.#signer?.toLowerCase()) {
        await this.#verify();
        if (response.signer.toLowerCase() !== this.#signer?.toLowerCase()) {
          throw this.#distrusted(new Error(`the answer is signed by ${response.signer}, not by the enclave whose document was checked (${this.#signer})`));
        }
      }
      return response;
    });
  }

  #verify(): Promise<void> {
    return this.#counted('getAttestationDocument', async () => {
      const nonce = `0x${randomBytes(32).toString('hex')}` as const;
      const { document } = await withDeadline<{ document?: AttestationDocument }>(
        (options, done) => this.#client.getAttestationDocument({ nonce }, new Metadata(), options, done),
        this.#deadlineMs,
      );
      if (!document) throw this.#distrusted(new Error('the enclave answered without an attestation document'));
      await this.#check(document, nonce).catch((error: unknown) => {
        throw this.#distrusted(error);
      });
      this.#signer = document.signer;
    });
  }

  #distrusted(error: unknown): unknown {
    if (typeof error === 'object' && error !== null) this.#untrusted.add(error);
    return error;
  }

  /** Runs one call, counted by its outcome: ok, untrusted, the gRPC status it failed with, or error. */
  async #counted<T>(method: AttestationMethod, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await call();
    } catch (error) {
      outcome = this.#outcomeOf(error);
      throw error;
    } finally {
      this.#metrics.attestationCall(method, outcome, (performance.now() - started) / 1000);
    }
  }

  #outcomeOf(error: unknown): string {
    if (typeof error === 'object' && error !== null && this.#untrusted.has(error)) return 'untrusted';
    const code = (error as Partial<ServiceError> | null)?.code;
    const name = typeof code === 'number' ? status[code] : undefined;
    return name ? name.toLowerCase() : 'error';
  }
}
