/**
 * The attestation service over gRPC, for payment actors: the same calls as the HTTP
 * surface, with refusals as gRPC statuses and the service's code in the
 * `error-code` trailer.
 */
import { Metadata, status as Status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { EnclaveServiceServer, VerifyPaymentResponse } from '../../proto/gen/peer/enclave/v1/enclave.js';
import type { AttestationService } from '../attestation-service.js';
import { AttestationError } from '../errors.js';

const STATUS_OF: Record<AttestationError['status'], Status> = {
  400: Status.INVALID_ARGUMENT,
  404: Status.NOT_FOUND,
  409: Status.ALREADY_EXISTS,
  422: Status.FAILED_PRECONDITION,
  502: Status.UNAVAILABLE,
  503: Status.UNAVAILABLE,
};

function unary<Req, Res>(logger: Logger, method: string, handle: (request: Req) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => {
        const metadata = new Metadata();
        if (error instanceof AttestationError) {
          metadata.set('error-code', error.code);
          callback({ code: STATUS_OF[error.status], details: error.message, metadata });
          return;
        }
        logger.error({ method, errorName: (error as Error)?.name }, 'attestation call failed');
        metadata.set('error-code', 'INTERNAL_ERROR');
        callback({ code: Status.INTERNAL, details: 'internal error', metadata });
      },
    );
  };
}

/** A chain id as the JSON number HTTP bodies carry; one past the safe range, which the schema refuses, stands for any larger. */
const chainIdNumber = (value: bigint): number => (value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : Number.MAX_SAFE_INTEGER + 1);

export function enclaveService(service: AttestationService, logger: Logger): EnclaveServiceServer {
  return {
    getAttestationDocument: unary(logger, 'GetAttestationDocument', async () => ({ documentJson: JSON.stringify(service.attestationDocument()) })),
    verifyPayment: unary(logger, 'VerifyPayment', async (request): Promise<VerifyPaymentResponse> => {
      const intent = request.intent;
      const result = await service.verifyBuyerPayment(request.platform, request.actionType, {
        encryptedSessionMaterial: request.encryptedSessionMaterial,
        params: request.params,
        intent: intent && {
          intentHash: intent.intentHash,
          amount: intent.amount,
          fiatCurrency: intent.fiatCurrency,
          payeeDetails: intent.payeeDetails,
          conversionRate: intent.conversionRate,
          // As decimal strings, so a value out of range is refused by the schema rather than rounded.
          signalTimestamp: intent.signalTimestamp.toString(),
          timestampBuffer: intent.timestampBufferMs.toString(),
        },
        chainId: chainIdNumber(request.chainId),
        ...(request.verifyingContract === undefined ? {} : { verifyingContract: request.verifyingContract }),
      });
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
      };
    }),
    registerIdentity: unary(logger, 'RegisterIdentity', async (request) => ({
      attestationJson: JSON.stringify(
        await service.registerIdentity({
          platform: request.platform,
          actionType: request.actionType,
          callerAddress: request.callerAddress,
          encryptedSessionMaterial: request.encryptedSessionMaterial,
          params: request.params,
        }),
      ),
    })),
    listDisputeVerifiers: unary(logger, 'ListDisputeVerifiers', async () => ({ verifiers: service.disputeVerifiers() })),
    verifyDispute: unary(logger, 'VerifyDispute', async (request) => ({
      attestationJson: JSON.stringify(
        await service.verifyDispute(request.platform, request.actionType, {
          encryptedSessionMaterial: request.encryptedSessionMaterial,
          params: {},
          chainId: chainIdNumber(request.chainId),
          intentHash: request.intentHash,
        }),
      ),
    })),
  };
}
