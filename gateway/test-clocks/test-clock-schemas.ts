/** What the sandbox test-clock endpoints take and answer (docs/test-clocks.md). */
import { z } from 'zod';
import { isoTime, pageFields, pageQuery, resourceId } from '../schemas/common.js';

export const testClockId = resourceId('clk', 'a test clock');

const instant = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 time', example: '2026-11-23T13:01:00.000Z' });

export const createTestClockBody = z
  .strictObject({
    frozenTime: instant.optional().meta({ description: 'The time the clock starts frozen at: now when absent; at most two years before or after now' }),
    name: z.string().min(1).max(100).optional().meta({ description: 'A label of your own' }),
  })
  .meta({ id: 'CreateTestClockRequest', example: { name: 'Renewal scenario' } });

export const advanceTestClockBody = z
  .strictObject({ frozenTime: instant.meta({ description: 'Later than the clock’s frozenTime, by at most two years' }) })
  .meta({ id: 'AdvanceTestClockRequest', example: { frozenTime: '2026-11-23T13:01:00.000Z' } });

export const testClockPath = z.strictObject({ testClockId });

export const listTestClocksQuery = z.strictObject({ ...pageQuery });

export const testClock = z
  .object({
    id: testClockId,
    name: z.string().nullable().meta({ description: 'The label given at creation; null for none' }),
    frozenTime: isoTime.meta({ description: 'The clock’s time: the time its orders and payments run at' }),
    status: z.enum(['ready', 'advancing']).meta({ description: 'advancing while an advance fires the timers it passes; ready once frozenTime is its target' }),
    advancingTo: isoTime.nullable().meta({ description: 'The target of the advance under way; null when ready' }),
    createdAt: isoTime,
  })
  .meta({ id: 'TestClock' });

export const testClockList = z
  .object({ testClocks: z.array(testClock).meta({ description: 'This page of test clocks, newest first' }), ...pageFields('test clocks') })
  .meta({ id: 'TestClockList' });

export const deletedTestClock = z
  .object({ id: testClockId, deleted: z.literal(true).meta({ description: 'Always true: the test clock is deleted' }) })
  .meta({ id: 'DeletedTestClock' });

export type CreateTestClockBody = z.infer<typeof createTestClockBody>;
