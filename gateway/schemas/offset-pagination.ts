/** The offset paging of document 3's market lists (the orderbook table, the leaderboard). */
import { z } from 'zod';
import { count } from './common.js';

export const offsetPagination = z
  .object({
    limit: z.number().int().meta({ description: 'The most rows a page holds' }),
    offset: z.number().int().meta({ description: 'Rows skipped before this page' }),
    total: count.meta({ description: 'How many rows match' }),
    hasMore: z.boolean().meta({ description: 'More rows follow this page' }),
  })
  .meta({ description: 'Where this page is among the rows' });
