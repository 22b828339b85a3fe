/** A few lines of DOM building, so the page needs no framework: elements from a tag, attributes and children. */
type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | boolean | ((event: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** Replaces the page's content and moves focus to its heading, so a screen reader hears each step begin. */
export function show(root: HTMLElement, ...content: Child[]): void {
  root.replaceChildren(...content.filter((child): child is Node | string => child !== null && child !== undefined && child !== false && child !== ''));
  root.setAttribute('aria-busy', 'false');
  const heading = root.querySelector<HTMLElement>('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

export function announce(text: string): void {
  const announcer = document.getElementById('announcer');
  if (announcer) announcer.textContent = text;
}
