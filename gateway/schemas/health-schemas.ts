/** Document 3's health report, as GET /v1/health-check answers it. */
import { z } from 'zod';

const service = z
  .object({
    status: z.enum(['connected', 'disconnected']),
    responseTime: z.number().optional().meta({ description: 'Milliseconds, when connected' }),
  })
  .meta({ id: 'ServiceStatus' });

export const healthReport = z
  .object({
    status: z.enum(['healthy', 'degraded', 'unhealthy']).meta({ description: 'unhealthy without the store; degraded without the transport or event bus, or while the chain indexer is not serving' }),
    timestamp: z.string(),
    uptime: z.number().meta({ description: 'Seconds since the node started' }),
    environment: z.string(),
    version: z.string(),
    services: z.object({ database: service, redis: service.meta({ description: 'The transport and event bus (document 3 names this slot redis)' }) }),
    memory: z.object({ used: z.number().int(), total: z.number().int(), percentage: z.number() }),
  })
  .meta({ id: 'HealthReport' });
