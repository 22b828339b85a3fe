/**
 * A Store that times every collection call and reports it to RuntimeMetrics, then
 * answers exactly as the store it wraps: same results, same errors, same adapter name.
 * Failed calls are timed too (a slow failure is what an operator looks for). Declaring
 * a collection, `status()` and `close()` are passed through untimed.
 */
import type {
  Collection,
  CollectionSpec,
  CountOptions,
  Filter,
  FindOptions,
  Store,
  StoreStatus,
  StoredDocument,
  UpdateSpec,
  WriteOptions,
} from '../store/store.js';
import type { RuntimeMetrics } from './runtime-metrics.js';

type Operation = Parameters<RuntimeMetrics['storeOperation']>[1];

export function instrumentStore(store: Store, metrics: RuntimeMetrics): Store {
  return new InstrumentedStore(store, metrics);
}

class InstrumentedStore implements Store {
  constructor(
    readonly inner: Store,
    readonly metrics: RuntimeMetrics,
  ) {}

  get adapter(): Store['adapter'] {
    return this.inner.adapter;
  }

  async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
    return new InstrumentedCollection(await this.inner.collection<T>(spec), this.metrics);
  }

  status(): Promise<StoreStatus> {
    return this.inner.status();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

class InstrumentedCollection<T extends StoredDocument> implements Collection<T> {
  constructor(
    readonly inner: Collection<T>,
    readonly metrics: RuntimeMetrics,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  findOne(filter: Filter, options?: Pick<FindOptions, 'sort' | 'projection'>): Promise<T | null> {
    return this.#timed('find', () => this.inner.findOne(filter, options));
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.#timed('find', () => this.inner.find(filter, options));
  }

  count(filter: Filter, options?: CountOptions): Promise<number> {
    return this.#timed('count', () => this.inner.count(filter, options));
  }

  insertOne(doc: T, options?: WriteOptions): Promise<void> {
    return this.#timed('insert', () => this.inner.insertOne(doc, options));
  }

  replaceOne(filter: Filter, doc: T, options?: WriteOptions): Promise<boolean> {
    return this.#timed('replace', () => this.inner.replaceOne(filter, doc, options));
  }

  updateOne(filter: Filter, update: UpdateSpec): Promise<boolean> {
    return this.#timed('update', () => this.inner.updateOne(filter, update));
  }

  deleteOne(filter: Filter): Promise<boolean> {
    return this.#timed('delete', () => this.inner.deleteOne(filter));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.#timed('delete', () => this.inner.deleteMany(filter));
  }

  async #timed<R>(operation: Operation, call: () => Promise<R>): Promise<R> {
    const started = performance.now();
    try {
      return await call();
    } finally {
      this.metrics.storeOperation(this.inner.name, operation, (performance.now() - started) / 1000);
    }
  }
}
