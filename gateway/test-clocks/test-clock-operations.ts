/** The sandbox test clocks (API key, sandbox only): create, list, read, advance, delete (docs/test-clocks.md). */
import { failure, invalid, type Outcome, standardAnswers, success } from '../openapi/answers.js';
import { reply } from '../envelope.js';
import { apiKeyRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import {
  advanceTestClockBody,
  createTestClockBody,
  deletedTestClock,
  listTestClocksQuery,
  testClock,
  testClockList,
  testClockPath,
} from './test-clock-schemas.js';
import type { TestClocks } from './test-clocks.js';

export interface TestClockDependencies {
  clocks: TestClocks;
}

const TEST_CLOCK_SANDBOX_ONLY: Outcome = { code: 'TEST_CLOCK_SANDBOX_ONLY', when: 'a live key: test clocks are sandbox only' };
export const TEST_CLOCK_NOT_FOUND: Outcome = { code: 'TEST_CLOCK_NOT_FOUND', when: 'no test clock of the key’s account has that id, or it was deleted' };

const tags = ['Test clocks'];
// Which account's key the operations are for, for tools (the fuzzer) that pick a key.
const sandbox = { guard: 'apiKey', extensions: { 'x-key-environment': 'SANDBOX' } } as const;
const refusals = apiKeyRefusals([TEST_CLOCK_SANDBOX_ONLY]);

const createTestClockOperation = defineOperation({
  method: 'post',
  path: '/api/v1/test-clocks',
  operationId: 'createTestClock',
  tags,
  summary: 'Create a test clock',
  description: 'A frozen time that moves only when advanced. Sandbox orders created with its id as testClockId run on it, with their payments.',
  ...sandbox,
  request: { body: createTestClockBody },
  optionalBody: true,
  read: { body: (ctx) => ctx.request.body ?? {} },
  answers: standardAnswers(
    { '201': success(201, testClock, 'The test clock, ready'), '400': invalid('the body, or a frozenTime more than two years from now'), ...refusals },
    { body: true, asksActors: true },
  ),
  handle:
    ({ clocks }: TestClockDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 201, 'Test clock created', testClock, await clocks.create(ctx.state.account, body));
    },
});

const listTestClocksOperation = defineOperation({
  method: 'get',
  path: '/api/v1/test-clocks',
  operationId: 'listTestClocks',
  tags,
  summary: 'The account’s test clocks, newest first',
  ...sandbox,
  request: { query: listTestClocksQuery },
  answers: standardAnswers({
    '200': success(200, testClockList, 'A page of test clocks not deleted, and the total'),
    '400': invalid('the query'),
    ...refusals,
  }),
  handle:
    ({ clocks }: TestClockDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Test clocks', testClockList, await clocks.list(ctx.state.account, query));
    },
});

const getTestClockOperation = defineOperation({
  method: 'get',
  path: '/api/v1/test-clocks/:testClockId',
  operationId: 'getTestClock',
  tags,
  summary: 'One test clock',
  ...sandbox,
  request: { path: testClockPath },
  answers: standardAnswers({
    '200': success(200, testClock, 'The test clock'),
    '400': invalid('testClockId is not a test clock id'),
    ...refusals,
    '404': failure(404, [TEST_CLOCK_NOT_FOUND]),
  }),
  handle:
    ({ clocks }: TestClockDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Test clock', testClock, await clocks.read(ctx.state.account, path.testClockId));
    },
});

const advanceTestClockOperation = defineOperation({
  method: 'post',
  path: '/api/v1/test-clocks/:testClockId/advance',
  operationId: 'advanceTestClock',
  tags,
  summary: 'Move a test clock forward',
  description:
    'Answers at once with status advancing. The timers of the clock’s orders and payments that the new time passes then fire in due order, each at its own due time (windows expire, retries run); the clock reads ready at the new time once none is left.',
  ...sandbox,
  request: { path: testClockPath, body: advanceTestClockBody },
  answers: standardAnswers(
    {
      '200': success(200, testClock, 'The test clock, advancing'),
      '400': invalid('the body or testClockId', [
        { code: 'TEST_CLOCK_TIME_NOT_LATER', when: 'frozenTime is not later than the clock’s frozenTime' },
        { code: 'TEST_CLOCK_ADVANCE_TOO_FAR', when: 'frozenTime is more than two years after the clock’s frozenTime' },
      ]),
      ...refusals,
      '404': failure(404, [TEST_CLOCK_NOT_FOUND]),
      '409': failure(409, [{ code: 'TEST_CLOCK_ADVANCING', when: 'an advance of this clock is still under way' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    ({ clocks }: TestClockDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 200, 'Test clock advancing', testClock, await clocks.advance(ctx.state.account, path.testClockId, body.frozenTime));
    },
});

const deleteTestClockOperation = defineOperation({
  method: 'delete',
  path: '/api/v1/test-clocks/:testClockId',
  operationId: 'deleteTestClock',
  tags,
  summary: 'Delete a test clock',
  description: 'An advance under way stops at its next step. Orders and payments on the clock stay at its last time, their timers never firing.',
  ...sandbox,
  request: { path: testClockPath },
  answers: standardAnswers(
    {
      '200': success(200, deletedTestClock, 'Deleted'),
      '400': invalid('testClockId is not a test clock id'),
      ...refusals,
      '404': failure(404, [TEST_CLOCK_NOT_FOUND]),
    },
    { asksActors: true },
  ),
  handle:
    ({ clocks }: TestClockDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Test clock deleted', deletedTestClock, await clocks.remove(ctx.state.account, path.testClockId));
    },
});

export function testClockOperations(): Operation<TestClockDependencies>[] {
  return [createTestClockOperation, listTestClocksOperation, getTestClockOperation, advanceTestClockOperation, deleteTestClockOperation];
}
