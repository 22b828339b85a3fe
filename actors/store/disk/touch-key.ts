/** How the write batch names a document it touched: the collection, NUL, the `_id`. */
export function touchKey(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}
