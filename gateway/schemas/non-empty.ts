/** A list as a tuple of at least one item, which zod's unions take; an empty list is a mistake of the code building it. */
export function nonEmpty<T>(items: readonly T[], what: string): [T, ...T[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error(`${what}: the list is empty`);
  return [first, ...rest];
}
