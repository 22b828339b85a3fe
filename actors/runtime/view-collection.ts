/**
 * A kind's stored documents as its list and read endpoints query them: each document's
 * `view` is the kind's view type, and filter, sort and projection keys are paths the
 * document has (`_id`, `clockId`, `view.merchantId`, `view.payment.status`…), checked at
 * compile time, so a renamed view field breaks its queries where they are written.
 */
import type { Collection, CountOptions, FindOptions, Projection, SortSpec } from '../store/store.js';
import type { ActorDocument } from './actor-document.js';

type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date;

/** Dotted paths into `T`, four levels deep at most; an array's path reaches into its elements, as MongoDB's do. */
export type PathsOf<T, Depth extends unknown[] = []> = Depth['length'] extends 4
  ? never
  : T extends Leaf
    ? never
    : T extends readonly (infer Element)[]
      ? PathsOf<Element, Depth>
      : { [Key in keyof T & string]: Key | `${Key}.${PathsOf<NonNullable<T[Key]>, [...Depth, 1]>}` }[keyof T & string];

/** A stored document of a kind whose view is `TView`. */
export type ViewDocument<TView> = ActorDocument<TView>;

/** The fields of a document endpoints query beside its view; the runtime's own (outbox, timers, snapshot) are not theirs. */
type QueriedFields = Pick<ActorDocument, '_id' | 'version' | 'clockId' | 'createdAt' | 'updatedAt'>;

/** Every path a query of such documents may name. */
export type ViewPath<TView> = PathsOf<QueriedFields & { view: TView }>;

/** A MongoDB filter over `ViewPath`s; each path takes a value or an operator document, as the store's filters do. */
export type ViewFilter<TView> = { [Path in ViewPath<TView>]?: unknown } & {
  $and?: ViewFilter<TView>[];
  $or?: ViewFilter<TView>[];
  $nor?: ViewFilter<TView>[];
};

export type ViewFindOptions<TView> = Pick<FindOptions, 'skip' | 'limit'> & {
  sort?: { [Path in ViewPath<TView>]?: 1 | -1 };
  projection?: { [Path in ViewPath<TView>]?: 0 | 1 };
};

/** The read side of a kind's collection: actors write their documents, endpoints only read them. */
export interface ViewCollection<TView> {
  findOne(filter: ViewFilter<TView>, options?: Pick<ViewFindOptions<TView>, 'sort' | 'projection'>): Promise<ViewDocument<TView> | null>;
  find(filter: ViewFilter<TView>, options?: ViewFindOptions<TView>): Promise<ViewDocument<TView>[]>;
  count(filter: ViewFilter<TView>, options?: CountOptions): Promise<number>;
}

/** The typed face of a kind's collection, whose documents its kind's `view` wrote. */
// biome-ignore lint/suspicious/noExplicitAny: the collection holds documents of whatever snapshot type the kind's machine has
export function viewCollection<TView>(documents: Collection<ActorDocument<any>>): ViewCollection<TView> {
  return {
    findOne: (filter, options) => documents.findOne(filter, options && storeOptions(options)),
    find: (filter, options) => documents.find(filter, options && storeOptions(options)),
    count: (filter, options) => documents.count(filter, options),
  };
}

/** Checked paths as the store takes them: an optional key of the typed forms is one left out. */
function storeOptions<TView>({ sort, projection, ...rest }: ViewFindOptions<TView>): FindOptions {
  return { ...rest, ...(sort && { sort: sort as SortSpec }), ...(projection && { projection: projection as Projection }) };
}
