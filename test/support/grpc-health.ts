/** Asks a server's standard gRPC health service how one of its services is. */
import { credentials, loadPackageDefinition, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

type HealthClient = {
  check(request: { service: string }, done: (error: ServiceError | null, response?: { status: string }) => void): void;
  close(): void;
};

export async function healthOf(address: string, service: string): Promise<string> {
  const health = loadPackageDefinition(loadSync(protoPath, { enums: String })) as unknown as {
    grpc: { health: { v1: { Health: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => HealthClient } } };
  };
  const client = new health.grpc.health.v1.Health(address, credentials.createInsecure());
  try {
    const answer = await new Promise<{ status: string }>((resolve, reject) =>
      client.check({ service }, (error, response) => (error ? reject(error) : resolve(response!))),
    );
    return answer.status;
  } finally {
    client.close();
  }
}
