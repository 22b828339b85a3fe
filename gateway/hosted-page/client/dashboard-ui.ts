/**
 * The dashboard's small building blocks: a list that is a table on a desktop and stacked rows
 * on a phone (each cell names its column), a refusal shown in words, a two-step confirmation
 * for what cannot be undone, a pager.
 */
import type { Page } from './dashboard-api.js';
import { DashboardError } from './dashboard-api.js';
import { h } from './dom.js';

type Cell = Node | string | null;

/** A table whose cells carry their column's name, so the stylesheet can stack them on a phone. */
export function listTable(caption: string, columns: string[], rows: Cell[][], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h(
    'table',
    { class: 'list' },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, ...columns.map((column) => h('th', { scope: 'col' }, column)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell, index) => h('td', { 'data-label': columns[index] ?? '' }, cell))))),
  );
}

export function badge(text: string, tone = text.toLowerCase()): HTMLElement {
  return h('span', { class: `badge ${tone.replace(/[^a-z_-]/g, '')}` }, text);
}

/** A failed call in words: `words` turns its code into the page's own, else the server's message is shown. */
export function errorBox(error: unknown, words: (failure: DashboardError) => string = (failure) => failure.message): HTMLElement {
  const text = error instanceof DashboardError ? words(error) : error instanceof Error ? error.message : String(error);
  return h('p', { class: 'error', role: 'alert' }, text);
}

/**
 * A button that asks before it acts: the first press shows `question` with a confirm and a
 * keep button; `act` runs on the confirm, its failure shown in place.
 */
export function confirmButton(options: {
  label: string;
  question: string;
  confirm: string;
  keep: string;
  act: () => Promise<void>;
  danger?: boolean;
  /** A refusal in the page's words. */
  words?: (failure: DashboardError) => string;
}): HTMLElement {
  const box = h('div', { class: 'confirm' });
  const ask = () => {
    const yes = h('button', { type: 'button', class: options.danger === false ? 'primary' : 'danger' }, options.confirm);
    const no = h('button', { type: 'button', class: 'secondary' }, options.keep);
    yes.addEventListener('click', async () => {
      yes.disabled = true;
      no.disabled = true;
      try {
        await options.act();
        if (box.isConnected) box.replaceChildren(start());
      } catch (error) {
        box.replaceChildren(errorBox(error, options.words), start());
      }
    });
    no.addEventListener('click', () => box.replaceChildren(start()));
    box.replaceChildren(h('p', { role: 'status' }, options.question), h('div', { class: 'buttons' }, yes, no));
    yes.focus();
  };
  const start = () => h('button', { type: 'button', class: options.danger === false ? 'secondary' : 'danger', onclick: ask }, options.label);
  box.append(start());
  return box;
}

export function pager(page: Page, go: (page: number) => void): HTMLElement | null {
  const pages = Math.max(1, Math.ceil(page.total / page.limit));
  if (pages === 1) return null;
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    h('button', { type: 'button', class: 'secondary', disabled: page.page <= 1, onclick: () => go(page.page - 1) }, 'Previous'),
    h('span', {}, page.totalCapped ? `Page ${page.page} of ${pages}+ (${page.total}+)` : `Page ${page.page} of ${pages} (${page.total})`),
    h('button', { type: 'button', class: 'secondary', disabled: page.page >= pages && !page.totalCapped, onclick: () => go(page.page + 1) }, 'Next'),
  );
}

export function mono(text: string): HTMLElement {
  return h('span', { class: 'mono' }, text);
}
