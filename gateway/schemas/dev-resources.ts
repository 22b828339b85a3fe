/** The answers of the development-only routes (gateway/dev/dev-operations.ts). */
import { z } from 'zod';
import { checkoutOrder } from '../orders/order-resources.js';

export const demoOrderResult = z
  .object({
    order: checkoutOrder,
    orderToken: z.string().meta({ description: 'The customer’s credential for this order' }),
    checkoutPath: z.string().meta({
      description: 'The order’s checkout link on this node, relative to its origin: `/?order=<id>&token=<orderToken>`',
      example: '/?order=ord_0DNE35jGUTqY0yviMlDV00bS&token=…',
    }),
  })
  .meta({ id: 'DemoOrder' });
