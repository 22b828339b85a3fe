/**
 * The business's audit log, newest first, for its Owners: who did what, from which environment, and
 * how it was answered. Every read is recorded too and outnumbers the changes, so the changes show
 * first and the reads are a switch away.
 */
import { listTable, mono, pager } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { when } from './dashboard-words.js';
import { h } from './dom.js';

export const auditView: View = async ({ api, session, go }, { params }) => {
  if (session.role !== 'OWNER') return [h('h1', {}, 'Audit log'), h('p', { class: 'hint' }, 'Only an Owner may read the audit log.')];
  const reads = params.get('reads') === 'include';
  const page = await api.auditLog(Number(params.get('page') ?? '1') || 1, reads);
  return [
    h('h1', {}, 'Audit log'),
    h(
      'p',
      {},
      reads ? 'Every call, reads included. ' : 'Sign-ins and changes. ',
      h('a', { href: reads ? '#/audit' : '#/audit?reads=include' }, reads ? 'Show changes only' : 'Show reads too'),
    ),
    listTable(
      'Audit log',
      ['When', 'Who', 'What', 'On', 'Answer'],
      page.entries.map((entry) => [
        when(entry.at),
        entry.actor.kind === 'session' ? entry.actor.email : 'API key',
        h('span', {}, entry.operationId, ...Object.values(entry.targets).flatMap((target) => [' ', mono(target)])),
        entry.environment ?? '—',
        String(entry.status),
      ]),
      'Nothing recorded yet.',
    ),
    pager(page, (next) => go(`#/audit?page=${next}${reads ? '&reads=include' : ''}`)),
  ].filter((node): node is HTMLElement => node !== null);
};
