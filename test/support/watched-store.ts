/**
 * A store that records every findOne on one collection (its filter and the fields it
 * projects), and can hold those reads at a gate until the test opens it: how the caches
 * of the gateway are shown to read nothing on a hit, or to race a write.
 */
import type { Filter, Store } from '../../actors/index.js';
import { interceptedStore } from './intercepted-store.js';

export function watchedStore(inner: Store, collection: string) {
  const reads: Array<{ filter: Filter; fields: string[] }> = [];
  let gate: Promise<void> | null = null;
  const store = interceptedStore(inner, (spec, wrapped) =>
    spec.name === collection
      ? {
          findOne: async (filter, options) => {
            reads.push({ filter, fields: Object.keys(options?.projection ?? {}) });
            const doc = await wrapped.findOne(filter, options);
            await gate;
            return doc;
          },
        }
      : {},
  );
  return {
    store,
    reads,
    /** Holds every read from now on after it has taken its document; the returned function lets them go. */
    hold(): () => void {
      let open = () => {};
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
  };
}
