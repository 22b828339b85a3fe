/** Document 3's orderbook operations: the list form and the table form, one query (docs/orderbook.md). */
import { orderbookList, orderbookQuery, orderbookTable } from '../schemas/orderbook-schemas.js';
import { invalid, standardAnswers, success, type Outcome } from './answers.js';
import { NO_AUTH } from './security.js';

const UNAVAILABLE: Outcome[] = [
  { code: 'ORDERBOOK_UNAVAILABLE', when: 'The node reads no chain, or its deposits cannot be read now and its last snapshot is over 60 seconds old' },
];

export function orderbookPaths() {
  return {
    '/v2/orderbook': {
      get: {
        operationId: 'getOrderbook',
        tags: ['Market'],
        summary: 'The orderbook of one currency, with prices in fiat',
        description: 'One entry per deposit, payment platform and currency it prices. Answered from a snapshot at most 60 seconds old (`generatedAt`).',
        security: NO_AUTH,
        requestParams: { query: orderbookQuery },
        responses: standardAnswers(
          { '200': success(200, orderbookList, 'The entries, sorted and filtered as asked'), '400': invalid('the query') },
          { unavailable: UNAVAILABLE },
        ),
      },
    },
    '/v2/orderbook/table': {
      get: {
        operationId: 'getOrderbookTable',
        tags: ['Market'],
        summary: 'The orderbook of one currency as a paged table',
        description: 'The same rows as the list form with every method a deposit accepts, the taker’s rate, whether it is private, and pagination.',
        security: NO_AUTH,
        requestParams: { query: orderbookQuery },
        responses: standardAnswers(
          { '200': success(200, orderbookTable, 'One page of rows and the total'), '400': invalid('the query') },
          { unavailable: UNAVAILABLE },
        ),
      },
    },
  };
}
