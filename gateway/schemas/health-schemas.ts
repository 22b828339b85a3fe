/** Document 3's health report, as GET /v1/health-check answers it. */
import { z } from 'zod';

const service = z
  .object({
    status: z.enum(['connected', 'disconnected']).meta({ description: 'Whether the node reaches it' }),
    responseTime: z.number().optional().meta({ description: 'Milliseconds, when connected' }),
  })
  .meta({ id: 'ServiceStatus', description: 'A dependency of the node' });

export const healthReport = z
  .object({
    status: z.enum(['healthy', 'degraded', 'unhealthy']).meta({
      description:
        'unhealthy without the store; degraded without the transport or event bus, while the chain indexer is not serving, or while the heap is past 80 % of its limit',
    }),
    timestamp: z.string().meta({ description: 'When the report was made (ISO 8601)' }),
    uptime: z.number().meta({ description: 'Seconds since the node started' }),
    environment: z.string().meta({ description: 'NODE_ENV: development, test or production' }),
    version: z.string().meta({ description: 'The running code’s version' }),
    services: z
      .object({
        database: service.meta({ description: 'The store (MongoDB or the embedded store)' }),
        redis: service.meta({ description: 'The transport and event bus (document 3 names this slot redis)' }),
      })
      .meta({ description: 'The node’s dependencies' }),
    memory: z
      .object({
        used: z.number().int().meta({ description: 'Bytes of the machine’s memory in use' }),
        total: z.number().int().meta({ description: 'Bytes of memory the machine has' }),
        percentage: z.number().meta({ description: 'used as a percentage of total' }),
      })
      .meta({ description: 'The machine’s memory' }),
  })
  .meta({ id: 'HealthReport' });

export const readiness = z
  .object({
    ready: z.literal(true).meta({ description: 'Always true: a node that is not ready answers 503 instead' }),
    shardsHeld: z.number().int().nullable().meta({
      description: 'How many shard leases the node holds now (0 on a node that has just joined a cluster); null on a node alone, which holds every actor',
    }),
  })
  .meta({ id: 'Readiness' });

export const liveness = z
  .object({
    alive: z.literal(true).meta({ description: 'Always true: the process answers' }),
  })
  .meta({ id: 'Liveness' });
