/**
 * The engineers' page in the browser: asks for the admin token, lists the running node's
 * machines (GET /internal/v1/machines) and draws the one picked (GET /internal/v1/machines/{name});
 * lists the actors worth a look (GET /internal/v1/actors/watchlist) and finds actors
 * (GET /internal/v1/actors?query=), inspects the one picked through time, and shows the
 * node's health.
 * The address's fragment names what is shown (`#payment` a chart, `#payment/pay_…` an
 * actor), so either can be linked to. The bundle exports the chart panel and renderer,
 * with their active-state highlight, for scripts run in the page.
 */
import type { ChartDefinition } from '../../../machines/charts/chart-graph.js';
import type { MachineSummary } from '../machine-summary.js';
import { ActorInspector } from './actor-inspector.js';
import { adminGet, TokenRefusedError } from './admin-api.js';
import { forgetToken, keepToken, storedToken } from './admin-token.js';
import { showChart } from './chart-panel.js';
import { hint } from './dom.js';
import { showHealth } from './health-badge.js';
import { readWatchlist, searchActors } from './inspector-api.js';
import { actorAddress, readAddress } from './page-address.js';
import { searchResults } from './search-results.js';
import { watchlistLists } from './watchlist-panel.js';

export { showChart } from './chart-panel.js';
export { renderChart } from '../../../machines/charts/render-chart.js';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = byId<HTMLFormElement>('token-form');
const tokenInput = byId<HTMLInputElement>('token');
const forget = byId<HTMLButtonElement>('forget-token');
const searchForm = byId<HTMLFormElement>('search-form');
const searchInput = byId<HTMLInputElement>('search');
const results = byId<HTMLElement>('results');
const list = byId<HTMLElement>('machines');
const chart = byId<HTMLElement>('chart');
const status = byId<HTMLElement>('status');
const health = byId<HTMLElement>('health');
const watchlist = byId<HTMLElement>('watchlist');
const watchLists = byId<HTMLElement>('watch-lists');
const stuckAfter = byId<HTMLInputElement>('stuck-after');

let machines: MachineSummary[] = [];
const definitions = new Map<string, Promise<ChartDefinition>>();

const inspector = new ActorInspector(
  { bar: byId('actor-bar'), chart, details: byId('actor') },
  {
    token: storedToken,
    guarded,
    async chartOf(kind, token) {
      const name = machines.find((machine) => machine.kind === kind)?.name;
      return name ? definitionOf(name, token) : null;
    },
    sent: () => void refreshWatchlist(),
  },
);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  keepToken(tokenInput.value.trim());
  tokenInput.value = '';
  void start();
});
forget.addEventListener('click', () => {
  forgetToken();
  signedOut('');
});
searchForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void search(searchInput.value.trim());
});
byId<HTMLButtonElement>('refresh-watchlist').addEventListener('click', () => void refreshWatchlist());
stuckAfter.addEventListener('change', () => void refreshWatchlist());
window.addEventListener('hashchange', () => void route());

async function start(): Promise<void> {
  const token = storedToken();
  if (!token) return signedOut('');
  form.hidden = true;
  forget.hidden = false;
  searchForm.hidden = false;
  watchlist.hidden = false;
  void refreshWatchlist();
  const listed = await guarded(() => adminGet<MachineSummary[]>('/internal/v1/machines', token));
  if (!listed) return;
  machines = listed;
  list.replaceChildren(...machines.map(machineButton));
  await route();
}

function machineButton(machine: MachineSummary): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.machine = machine.name;
  const name = document.createElement('span');
  name.textContent = machine.name;
  const count = document.createElement('span');
  count.className = 'count';
  count.textContent = `${machine.states} ${machine.states === 1 ? 'state' : 'states'}${machine.machineVersion === undefined ? '' : ` · v${machine.machineVersion}`}`;
  button.append(name, count);
  button.addEventListener('click', () => {
    location.hash = encodeURIComponent(machine.name);
  });
  return button;
}

async function route(): Promise<void> {
  const token = storedToken();
  if (!token) return;
  const address = readAddress(location.hash);
  const machine = address && 'machine' in address ? address.machine : '';
  for (const button of list.querySelectorAll<HTMLButtonElement>('button')) button.setAttribute('aria-current', String(button.dataset.machine === machine));
  const actor = address && 'kind' in address ? `${address.kind}:${address.id}` : '';
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.side a[data-actor]'))
    link.setAttribute('aria-current', String(link.dataset.actor === actor));
  if (address && 'kind' in address) return inspector.inspect(address.kind, address.id);
  inspector.close();
  if (!machine) return void chart.replaceChildren(hint('Pick a machine to see its chart, or find an actor to inspect.'));
  const definition = await guarded(() => definitionOf(machine, token));
  if (definition) await showChart(chart, definition);
}

async function search(query: string): Promise<void> {
  const token = storedToken();
  if (!token || !query) return;
  const found = await guarded(() => searchActors(query, token));
  if (!found) return;
  results.replaceChildren(...searchResults(found));
  // One actor found is the one wanted: open it at once.
  const [only] = found.actors;
  if (found.actors.length === 1 && only) location.hash = actorAddress(only.kind, only.id);
}

/** The actors worth a look, and the node's health beside them. */
async function refreshWatchlist(): Promise<void> {
  const token = storedToken();
  void showHealth(health);
  if (!token) return;
  const minutes = Math.min(10_080, Math.max(1, Math.round(Number(stuckAfter.value)) || 15));
  const listed = await guarded(() => readWatchlist(minutes, token));
  if (listed) watchLists.replaceChildren(...watchlistLists(listed));
}

function definitionOf(name: string, token: string): Promise<ChartDefinition> {
  let definition = definitions.get(name);
  if (!definition) {
    definition = adminGet<ChartDefinition>(`/internal/v1/machines/${encodeURIComponent(name)}`, token);
    // A failed read is not kept: the next pick asks again.
    definition.catch(() => definitions.delete(name));
    definitions.set(name, definition);
  }
  return definition;
}

/** Runs a call of the admin API; a refused token sends the engineer back to the token form. */
async function guarded<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    status.textContent = '';
    return await call();
  } catch (error) {
    if (error instanceof TokenRefusedError) {
      forgetToken();
      signedOut(`The node refused the token (${error.message}): enter it again.`);
    } else {
      status.textContent = error instanceof Error ? error.message : String(error);
    }
    return null;
  }
}

function signedOut(message: string): void {
  form.hidden = false;
  forget.hidden = true;
  searchForm.hidden = true;
  watchlist.hidden = true;
  watchLists.replaceChildren();
  machines = [];
  definitions.clear();
  list.replaceChildren();
  results.replaceChildren();
  inspector.close();
  chart.replaceChildren(hint('Enter the admin token (PEER_ADMIN_TOKEN) to list the machines and inspect actors.'));
  status.textContent = message;
  tokenInput.focus();
}

void showHealth(health);
void start();
