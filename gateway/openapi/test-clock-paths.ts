/** The sandbox test-clock operations (docs/test-clocks.md). */
import {
  advanceTestClockBody,
  createTestClockBody,
  deletedTestClock,
  listTestClocksQuery,
  testClock,
  testClockList,
  testClockPath,
} from '../schemas/test-clock-schemas.js';
import { failure, invalid, standardAnswers, success, type Outcome } from './answers.js';
import { API_KEY, apiKeyRefusals } from './security.js';

const TEST_CLOCK_SANDBOX_ONLY: Outcome = { code: 'TEST_CLOCK_SANDBOX_ONLY', when: 'a live key: test clocks are sandbox only' };
export const TEST_CLOCK_NOT_FOUND: Outcome = { code: 'TEST_CLOCK_NOT_FOUND', when: 'no test clock of the key’s account has that id, or it was deleted' };

const tags = ['Test clocks'];
// Which account's key the operations are for, for tools (the fuzzer) that pick a key.
const sandbox = { security: API_KEY, 'x-key-environment': 'SANDBOX' } as const;
const refusals = apiKeyRefusals([TEST_CLOCK_SANDBOX_ONLY]);

export function testClockPaths() {
  return {
    '/api/v1/test-clocks': {
      post: {
        operationId: 'createTestClock',
        tags,
        summary: 'Create a test clock',
        description: 'A frozen time that moves only when advanced. Sandbox orders created with its id as testClockId run on it, with their payments.',
        ...sandbox,
        requestBody: { required: false, content: { 'application/json': { schema: createTestClockBody } } },
        responses: standardAnswers(
          { '201': success(201, testClock, 'The test clock, ready'), '400': invalid('the body, or a frozenTime more than two years from now'), ...refusals },
          { body: true, asksActors: true },
        ),
      },
      get: {
        operationId: 'listTestClocks',
        tags,
        summary: 'The account’s test clocks, newest first',
        ...sandbox,
        requestParams: { query: listTestClocksQuery },
        responses: standardAnswers({
          '200': success(200, testClockList, 'A page of test clocks not deleted, and the total'),
          '400': invalid('the query'),
          ...refusals,
        }),
      },
    },
    '/api/v1/test-clocks/{testClockId}': {
      get: {
        operationId: 'getTestClock',
        tags,
        summary: 'One test clock',
        ...sandbox,
        requestParams: { path: testClockPath },
        responses: standardAnswers({
          '200': success(200, testClock, 'The test clock'),
          '400': invalid('testClockId is not a test clock id'),
          ...refusals,
          '404': failure(404, [TEST_CLOCK_NOT_FOUND]),
        }),
      },
      delete: {
        operationId: 'deleteTestClock',
        tags,
        summary: 'Delete a test clock',
        description: 'An advance under way stops at its next step. Orders and payments on the clock stay at its last time, their timers never firing.',
        ...sandbox,
        requestParams: { path: testClockPath },
        responses: standardAnswers(
          {
            '200': success(200, deletedTestClock, 'Deleted'),
            '400': invalid('testClockId is not a test clock id'),
            ...refusals,
            '404': failure(404, [TEST_CLOCK_NOT_FOUND]),
          },
          { asksActors: true },
        ),
      },
    },
    '/api/v1/test-clocks/{testClockId}/advance': {
      post: {
        operationId: 'advanceTestClock',
        tags,
        summary: 'Move a test clock forward',
        description:
          'Answers at once with status advancing. The timers of the clock’s orders and payments that the new time passes then fire in due order, each at its own due time (windows expire, retries run); the clock reads ready at the new time once none is left.',
        ...sandbox,
        requestParams: { path: testClockPath },
        requestBody: { required: true, content: { 'application/json': { schema: advanceTestClockBody } } },
        responses: standardAnswers(
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
      },
    },
  };
}
