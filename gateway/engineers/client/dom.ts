/**
 * Building the page's elements. Every text goes in through text nodes, never as markup,
 * so whatever an actor holds (a merchant's metadata, an error message) shows as text.
 */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  made.append(...children);
  return made;
}

export function hint(text: string): HTMLParagraphElement {
  return element('p', 'hint', text);
}

/** A value as indented JSON, as the API gives it (bigints as `{ "__bigint": … }`). */
export function jsonBlock(value: unknown): HTMLPreElement {
  return element('pre', 'json', JSON.stringify(value, null, 2));
}

export function button(label: string, onClick: () => void, className = ''): HTMLButtonElement {
  const made = element('button', className, label);
  made.type = 'button';
  made.addEventListener('click', onClick);
  return made;
}

/** A table with a header row; an empty list reads `empty` instead. */
export function table(headers: string[], rows: HTMLTableRowElement[], empty: string): HTMLElement {
  if (rows.length === 0) return hint(empty);
  const head = element('tr', '', ...headers.map((header) => element('th', '', header)));
  return element('table', 'grid', element('thead', '', head), element('tbody', '', ...rows));
}

export function row(...cells: Array<Node | string>): HTMLTableRowElement {
  return element('tr', '', ...cells.map((cell) => element('td', '', cell)));
}
