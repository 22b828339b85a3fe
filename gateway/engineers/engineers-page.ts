/**
 * gateway/engineers: the engineers' page at /internal/engineers, where the machines of
 * the running node are listed and drawn as state charts, laid out in the browser from
 * the chart graph GET /internal/v1/machines/{name} serves (so it is always the running
 * version), and any actor is inspected: its state on its chart, its context, timers,
 * outbox and turns, and the actor as of any turn; the actors worth a look are listed
 * without an id, an event can be sent to one, and the node's health shows in the bar
 * (docs/inspector.md).
 *
 * The token: a browser's navigation cannot send `Authorization: Bearer`, so the page's
 * shell, script and stylesheet are served without the admin token, and only where the
 * admin API is mounted. They hold no data: the script asks the engineer for the admin
 * token, keeps it in sessionStorage (this tab only, gone when it closes), and calls the
 * admin API with it, which answers 401 to anyone without it. No cookie is ever set, so
 * no other site can make the browser call the admin API with the engineer's rights.
 */
import { readFileSync } from 'node:fs';
import type Router from '@koa/router';
import { pageCsp, pageHtml, pageRoutes } from '../page-routes.js';
import type { GatewayState } from '../state.js';
import { engineersScript } from './client-bundle.js';

export const ENGINEERS_PATH = '/internal/engineers';
export const ENGINEERS_SCRIPT_PATH = `${ENGINEERS_PATH}/app.js`;
export const ENGINEERS_STYLE_PATH = `${ENGINEERS_PATH}/app.css`;

const STYLE = readFileSync(new URL('./engineers.css', import.meta.url), 'utf8');

const CSP = pageCsp();

export function engineersPageRoutes(): Router<GatewayState> {
  return pageRoutes({
    path: ENGINEERS_PATH,
    csp: CSP,
    html: PAGE,
    scriptPath: ENGINEERS_SCRIPT_PATH,
    script: engineersScript,
    stylePath: ENGINEERS_STYLE_PATH,
    style: STYLE,
  });
}

const PAGE = pageHtml({
  title: 'Engineers · state charts and actors',
  stylePath: ENGINEERS_STYLE_PATH,
  scriptPath: ENGINEERS_SCRIPT_PATH,
  body: `<header class="bar">
<h1>State charts and actors</h1>
<form id="token-form" class="token" autocomplete="off">
<label for="token">Admin token</label>
<input id="token" name="token" type="password" required>
<button type="submit">Use token</button>
</form>
<button id="forget-token" type="button" hidden>Forget token</button>
<span id="health" class="health" role="status"></span>
</header>
<main class="panels">
<aside class="side">
<form id="search-form" class="search" role="search" autocomplete="off" hidden>
<label for="search">Find an actor</label>
<div class="search-row"><input id="search" name="search" type="search" placeholder="pay_…, ord_…, mer_… or kind:id" required><button type="submit">Search</button></div>
</form>
<nav id="results" class="results" aria-label="Actors found"></nav>
<section id="watchlist" class="watchlist" aria-label="Actors worth a look" hidden>
<div class="watch-head"><h2>Worth a look</h2><button id="refresh-watchlist" type="button">Refresh</button></div>
<label class="stuck-after">Stuck after <input id="stuck-after" type="number" min="1" max="10080" value="15"> minutes without a turn</label>
<div id="watch-lists" class="results"></div>
</section>
<nav id="machines" class="machines" aria-label="Machines"></nav>
</aside>
<div class="work">
<section id="actor-bar" class="actor-bar" aria-label="Actor" hidden></section>
<section id="chart" class="chart" aria-label="State chart"><p class="hint">Enter the admin token (PEER_ADMIN_TOKEN) to list the machines and inspect actors.</p></section>
<section id="actor" class="actor" aria-label="Actor details" hidden></section>
</div>
</main>
<p id="status" class="status" role="status"></p>`,
});
