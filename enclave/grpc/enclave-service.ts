/**
 * The attestation service over gRPC, for payment actors: the same calls as the HTTP
 * surface, their answers as typed messages holding the same values, with refusals as
 * gRPC statuses and the service's code in the `error-code` trailer.
 */
import { Metadata, status as Status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type {
  AttestationDocument,
  Eip712Domain,
  EnclaveServiceServer,
  IntentSnapshot,
  ResolveSellerPaymentResponse,
  VerifyPaymentProofResponse,
  VerifyPaymentResponse,
} from '../../proto/gen/peer/enclave/v1/enclave.js';
import type { AttestationService } from '../attestation-service.js';
import { AttestationError } from '../errors.js';

const STATUS_OF: Record<AttestationError['status'], Status> = {
  400: Status.INVALID_ARGUMENT,
  403: Status.PERMISSION_DENIED,
  404: Status.NOT_FOUND,
  409: Status.ALREADY_EXISTS,
  422: Status.FAILED_PRECONDITION,
  502: Status.UNAVAILABLE,
  503: Status.UNAVAILABLE,
};

/**
 * Codes whose status is not their HTTP status's: a platform that answered in a shape this
 * client cannot read (HTTP 502) will answer the same to a retry, and UNAVAILABLE tells
 * gRPC clients to retry. Only PLATFORM_UNAVAILABLE is an outage.
 */
const STATUS_BY_CODE: Record<string, Status> = {
  PLATFORM_RESPONSE_INVALID: Status.FAILED_PRECONDITION,
};

function unary<Req, Res>(logger: Logger, method: string, handle: (request: Req) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => {
        const metadata = new Metadata();
        if (error instanceof AttestationError) {
          metadata.set('error-code', error.code);
          callback({ code: STATUS_BY_CODE[error.code] ?? STATUS_OF[error.status], details: error.message, metadata });
          return;
        }
        logger.error({ method, errorName: (error as Error)?.name }, 'attestation call failed');
        metadata.set('error-code', 'INTERNAL_ERROR');
        callback({ code: Status.INTERNAL, details: 'internal error', metadata });
      },
    );
  };
}

/**
 * An integer as the JSON number HTTP bodies carry. One past the safe range stands for any
 * larger value: the request schemas take safe integers only, so it is refused, not rounded.
 */
const safeNumber = (value: bigint): number => (value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : Number.MAX_SAFE_INTEGER + 1);

/** The intent as the HTTP body carries it; the timestamps as decimal strings, so a value out of range is refused by the schema rather than rounded. */
function intentBody(intent: IntentSnapshot | undefined) {
  return (
    intent && {
      intentHash: intent.intentHash,
      amount: intent.amount,
      fiatCurrency: intent.fiatCurrency,
      payeeDetails: intent.payeeDetails,
      conversionRate: intent.conversionRate,
      signalTimestamp: intent.signalTimestamp.toString(),
      expiryTime: intent.expiryTime.toString(),
      disputeProtection: intent.disputeProtection,
    }
  );
}

/** The deprecated verifyingContract, only when it was sent: the schema checks it against the chain's verifier. */
const verifyingContractBody = (verifyingContract: string | undefined) => (verifyingContract === undefined ? {} : { verifyingContract });

/** A domain as its message: chain_id 0 and an empty verifying_contract where the domain names neither. */
function eip712Domain(domain: { name: string; version: string; chainId?: number; verifyingContract?: string }): Eip712Domain {
  return { name: domain.name, version: domain.version, chainId: BigInt(domain.chainId ?? 0), verifyingContract: domain.verifyingContract ?? '' };
}

function attestationDocument(document: ReturnType<AttestationService['attestationDocument']>): AttestationDocument {
  const key = document.encryptionKey;
  return {
    version: document.version,
    measurement: document.measurement,
    signer: document.signer,
    encryptionKey: { kty: key.kty ?? '', crv: key.crv ?? '', x: key.x ?? '', y: key.y ?? '', kid: key.kid ?? '', alg: key.alg ?? '', use: key.use ?? '' },
    issuedAt: document.issuedAt,
    binding: document.binding,
    bindingSignature: document.bindingSignature,
    nonce: document.nonce ?? '',
    evidence:
      document.evidence.kind === 'nitro'
        ? { kind: 'nitro', document: Buffer.from(document.evidence.document, 'base64') }
        : { kind: 'software', document: Buffer.alloc(0) },
  };
}

type PaymentAttestation = Awaited<ReturnType<AttestationService['verifyBuyerPayment']>>;

/** VerifyPaymentProofResponse and ResolveSellerPaymentResponse repeat VerifyPaymentResponse field for field; this stops compiling if they drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _paymentResponsesAlike: [Same<VerifyPaymentResponse, VerifyPaymentProofResponse>, Same<VerifyPaymentResponse, ResolveSellerPaymentResponse>] = [
  true,
  true,
];

function paymentResponse(result: PaymentAttestation): VerifyPaymentResponse & VerifyPaymentProofResponse & ResolveSellerPaymentResponse {
  return {
    signer: result.signer,
    signature: result.signature,
    intentHash: result.typedDataValue.intentHash,
    releaseAmount: result.typedDataValue.releaseAmount,
    dataHash: result.typedDataValue.dataHash,
    data: result.encodedPaymentDetails,
    paymentDetails: { ...result.paymentDetails, timestamp: BigInt(result.paymentDetails.timestamp) },
    source: result.metadata.source,
    chainId: BigInt(result.domain.chainId),
    verifyingContract: result.domain.verifyingContract,
    paymentProof: result.paymentProof,
  };
}

export function enclaveService(service: AttestationService, logger: Logger): EnclaveServiceServer {
  return {
    getAttestationDocument: unary(logger, 'GetAttestationDocument', async (request) => ({
      document: attestationDocument(request.nonce === '' ? service.attestationDocument() : await service.attestationDocumentFor(request.nonce)),
    })),
    verifyPayment: unary(logger, 'VerifyPayment', async (request) =>
      paymentResponse(
        await service.verifyBuyerPayment(request.platform, request.actionType, {
          encryptedSessionMaterial: request.encryptedSessionMaterial,
          params: request.params,
          intent: intentBody(request.intent),
          chainId: safeNumber(request.chainId),
          ...verifyingContractBody(request.verifyingContract),
        }),
      ),
    ),
    verifyPaymentProof: unary(logger, 'VerifyPaymentProof', async (request) =>
      paymentResponse(
        await service.verifyBuyerProof(request.platform, request.actionType, {
          proof: request.proof && {
            responseBody: request.proof.responseBody,
            timestamp: safeNumber(request.proof.timestamp),
            signature: request.proof.signature,
          },
          params: request.params,
          intent: intentBody(request.intent),
          chainId: safeNumber(request.chainId),
          ...verifyingContractBody(request.verifyingContract),
        }),
      ),
    ),
    resolveSellerPayment: unary(logger, 'ResolveSellerPayment', async (request) =>
      paymentResponse(
        await service.resolveSellerPayment(request.platform, request.actionType, {
          params: request.params,
          intent: intentBody(request.intent),
          chainId: safeNumber(request.chainId),
          ...verifyingContractBody(request.verifyingContract),
        }),
      ),
    ),
    registerIdentity: unary(logger, 'RegisterIdentity', async (request) => {
      const result = await service.registerIdentity({
        platform: request.platform,
        actionType: request.actionType,
        callerAddress: request.callerAddress,
        encryptedSessionMaterial: request.encryptedSessionMaterial,
        params: request.params,
        chainId: safeNumber(request.chainId),
      });
      return {
        identity: result.identity,
        typedDataValue: result.typedDataValue,
        signature: result.signature,
        signer: result.signer,
        domain: eip712Domain(result.domain),
      };
    }),
    listDisputeVerifiers: unary(logger, 'ListDisputeVerifiers', async () => ({ verifiers: service.disputeVerifiers() })),
    listSellerCredentials: unary(logger, 'ListSellerCredentials', async () => ({
      credentials: (await service.activeSellerCredentials()).map((credential) => ({ ...credential, expiresAt: BigInt(credential.expiresAt) })),
    })),
    verifyDispute: unary(logger, 'VerifyDispute', async (request) => {
      const result = await service.verifyDispute(request.platform, request.actionType, {
        encryptedSessionMaterial: request.encryptedSessionMaterial,
        params: {},
        chainId: safeNumber(request.chainId),
        intentHash: request.intentHash,
      });
      return {
        signer: result.signer,
        signature: result.signature,
        domain: eip712Domain(result.domain),
        typedDataValue: result.typedDataValue,
        data: result.data,
        dispute: result.dispute,
        source: result.metadata.source,
      };
    }),
  };
}
