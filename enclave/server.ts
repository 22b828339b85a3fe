/**
 * Runs the attestation service on its two surfaces: gRPC (with the standard health
 * service) for payment actors, HTTP ({attestation_url}) for buyer clients.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { EnclaveServiceService } from '../proto/gen/peer/enclave/v1/enclave.js';
import type { AttestationService } from './attestation-service.js';
import { enclaveService } from './grpc/enclave-service.js';
import { createAttestationApp } from './http/attestation-app.js';

export const ENCLAVE_SERVICE_NAME = 'peer.enclave.v1.EnclaveService';

export interface EnclaveServerOptions {
  service: AttestationService;
  logger: Logger;
  /** host:port; port 0 takes a free one. */
  grpcAddress: string;
  httpHost: string;
  /** 0 takes a free one. */
  httpPort: number;
}

export interface RunningEnclave {
  grpcAddress: string;
  httpUrl: string;
  stop(): Promise<void>;
}

export async function startEnclaveServer(options: EnclaveServerOptions): Promise<RunningEnclave> {
  const { service, logger } = options;
  const health = new HealthImplementation({ '': 'SERVING', [ENCLAVE_SERVICE_NAME]: 'SERVING' });
  const grpc = new Server();
  grpc.addService(EnclaveServiceService, enclaveService(service, logger));
  health.addToServer(grpc);
  const port = await new Promise<number>((resolve, reject) =>
    grpc.bindAsync(options.grpcAddress, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const grpcAddress = `${options.grpcAddress.slice(0, options.grpcAddress.lastIndexOf(':'))}:${port}`;

  const http = createServer(createAttestationApp({ service, logger }).callback());
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.httpPort, options.httpHost, () => resolve());
    });
  } catch (error) {
    grpc.forceShutdown();
    throw error;
  }
  const { address, port: httpPort } = http.address() as AddressInfo;
  const httpUrl = `http://${address.includes(':') ? `[${address}]` : address}:${httpPort}`;
  const document = service.attestationDocument();
  logger.info({ grpc: grpcAddress, http: httpUrl, signer: document.signer, measurement: document.measurement }, 'enclave listening');

  return {
    grpcAddress,
    httpUrl,
    async stop() {
      health.setStatus('', 'NOT_SERVING');
      health.setStatus(ENCLAVE_SERVICE_NAME, 'NOT_SERVING');
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      await new Promise<void>((resolve) => grpc.tryShutdown(() => resolve()));
      await closed;
    },
  };
}
