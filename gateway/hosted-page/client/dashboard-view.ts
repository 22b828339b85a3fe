/** What every dashboard screen is given, and where it is: the route read from the address's hash (`#/orders/ord_…?status=…`). */
import type { DashboardApi, DashboardSession } from './dashboard-api.js';
import type { ActionTracker } from './dashboard-actions.js';

export interface ViewContext {
  api: DashboardApi;
  session: DashboardSession;
  /** The actions started from this page, followed until they end. */
  actions: ActionTracker;
  /** Shows the screen at `hash`. */
  go(hash: string): void;
  /** Renders the current screen again, read afresh. */
  reload(): void;
}

export interface Route {
  /** The first segment: orders, webhooks, team, … */
  name: string;
  /** The second segment, an id, when there is one. */
  id: string | null;
  params: URLSearchParams;
}

export type View = (context: ViewContext, route: Route) => Promise<Node[]>;

export function routeOf(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [name, id] = path.split('/');
  return { name: name || 'orders', id: id ? decodeURIComponent(id) : null, params: new URLSearchParams(query) };
}
