/**
 * Sending an event to the actor on the page (POST …/events): one of the types the
 * actor's machine takes, and its other fields as JSON, bigints as the history writes
 * them. The node applies it as a turn and records it; the node refuses it for a live
 * actor in production, and the refusal shows beside the form.
 */
import { element } from './dom.js';
import type { InspectedActor } from './inspector-types.js';

export function eventForm(actor: InspectedActor, send: (event: Record<string, unknown>) => Promise<string>, said = ''): HTMLElement {
  const type = element('select', '', ...actor.events.map((name) => element('option', '', name)));
  type.id = 'send-event-type';
  const fields = element('textarea', 'json');
  fields.id = 'send-event-fields';
  fields.rows = 3;
  fields.value = '{}';
  fields.spellcheck = false;
  const outcome = element('p', 'outcome', said);
  outcome.setAttribute('role', 'status');
  const submit = element('button', '', 'Send event');
  submit.type = 'submit';
  const form = element('form', 'send-event', element('label', '', 'Event type', type), element('label', '', 'Other fields (JSON)', fields), submit, outcome);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let extra: unknown;
    try {
      extra = JSON.parse(fields.value || '{}');
    } catch {
      outcome.textContent = 'The other fields are not JSON.';
      return;
    }
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
      outcome.textContent = 'The other fields must be a JSON object.';
      return;
    }
    submit.disabled = true;
    outcome.textContent = 'Sending…';
    void send({ ...extra, type: type.value })
      .then((said) => (outcome.textContent = said))
      .finally(() => (submit.disabled = false));
  });
  return form;
}
