/** actors/kinds: one module per actor kind, binding a machine to its view, refusals and effects. The kinds: merchant, order. */
export * from './merchant-kind.js';
export * from './order-kind.js';
