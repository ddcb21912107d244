/**
 * The inspector page as HTML, from an {@link InspectorModel}: every value that came from a partner or the
 * state (bodies, names, IDs, URLs) goes through `escapeHtml`, so a request body holding markup shows as text.
 */

import type {
  JournalEntry,
  JournalHelper,
  JournalRequest,
  JournalTimer,
  JournalTransition,
  JournalWebhook,
} from '../../engine/journal.js';
import { escapeHtml } from '../../http/html.js';
import type { DeepReadonly } from '../../state/mock-state.js';
import type { WebhookEventRecord } from '../../state/webhooks.js';
import { PAGES_PREFIX } from '../pages.js';
import { INSPECTOR_SCRIPT, INSPECTOR_STYLE } from './assets.js';
import { CURL_KEY_VARIABLE, curlOf } from './curl.js';
import { drawMachine, nextStates } from './machine.js';
import { ENTRY_TYPES, type InspectorFocus, type InspectorModel, type InspectorQuery } from './model.js';

/** The page's path. */
export const INSPECTOR_PATH = `${PAGES_PREFIX}/inspector`;

const e = escapeHtml;

/** The page's address with `change` applied to the current filters (an empty value removes one). */
function hrefWith(
  query: InspectorQuery,
  change: Partial<Record<'userId' | 'transactionId' | 'type', string>>,
) {
  const params = new URLSearchParams();
  const merged = { userId: query.userId, transactionId: query.transactionId, type: query.type, ...change };
  for (const [name, value] of Object.entries(merged)) if (value) params.set(name, value);
  const search = params.toString();
  return e(search ? `${INSPECTOR_PATH}?${search}` : INSPECTOR_PATH);
}

function time(iso: string): string {
  return `<time class="mono" datetime="${e(iso)}" title="${e(iso)}">${e(iso.slice(11, 23))}</time>`;
}

/** A body as readable text: indented when it is JSON, as sent otherwise. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function body(title: string, text: string | undefined, cut: boolean | undefined): string {
  if (text === undefined) return '';
  const note = cut ? ' <span class="chip warn">cut at the journal’s 2,048 characters</span>' : '';
  return `<h4>${e(title)}${note}</h4><pre>${e(pretty(text))}</pre>`;
}

function statusChip(status: number | undefined, ok: boolean): string {
  const text = status === undefined || status === 0 ? 'no answer' : String(status);
  return `<span class="chip ${ok ? 'ok' : 'bad'}">${e(text)}</span>`;
}

function idLinks(entry: { userId?: string; transactionId?: string }, query: InspectorQuery): string {
  return (['userId', 'transactionId'] as const)
    .map((field) => {
      const id = entry[field];
      return id ? `<a class="chip" href="${hrefWith(query, { [field]: id })}">${e(id)}</a>` : '';
    })
    .join('');
}

function requestEntry(entry: JournalRequest, model: InspectorModel): string {
  const ok = entry.status >= 200 && entry.status < 300;
  const chips = [
    statusChip(entry.status, ok),
    entry.idempotencyKey ? `<span class="chip">Idempotency-Key ${e(entry.idempotencyKey)}</span>` : '',
    entry.replayed ? '<span class="chip warn">replayed</span>' : '',
    entry.fault ? `<span class="chip bad">fault: ${e(entry.fault)}</span>` : '',
    entry.rateLimit
      ? `<span class="chip">${entry.rateLimit.remaining}/${entry.rateLimit.limit} left</span>`
      : '',
  ].join('');
  const curlId = `curl-${entry.seq}`;
  const curlNote = entry.requestBodyCut
    ? '<p class="note">The body was longer than the journal keeps: this command sends only its start.</p>'
    : '';
  return (
    `<div class="line"><strong class="mono">${e(entry.method)} ${e(entry.path + (entry.query ?? ''))}</strong>${chips}` +
    `<button type="button" data-copy="${curlId}">Copy as curl</button></div>` +
    (entry.explain ? `<p class="explain">${e(entry.explain)}</p>` : '') +
    `<details><summary>Body, answer and curl</summary>` +
    body('Request body', entry.requestBody, entry.requestBodyCut) +
    body(`Answer ${entry.status}`, entry.responseBody, entry.responseBodyCut) +
    `<div class="curl"><h4>curl (set ${CURL_KEY_VARIABLE} to the sandbox key first)</h4>${curlNote}` +
    `<pre id="${curlId}" class="curl-text">${e(curlOf(entry, model.baseUrl))}</pre></div></details>`
  );
}

function transitionEntry(entry: JournalTransition): string {
  return (
    `<div class="line"><strong>${e(entry.resource)} <span class="mono">${e(entry.id)}</span></strong>` +
    `<span class="mono transition-arrow">${e(entry.from)} → ${e(entry.to)}</span>` +
    `<span class="chip">${e(entry.trigger)}</span></div>`
  );
}

function webhookEntry(entry: JournalWebhook): string {
  const outcome = entry.ok ? 'delivered' : `failed${entry.error ? `: ${entry.error}` : ''}`;
  const retry = entry.nextAttemptAt
    ? `<span class="chip warn">next attempt ${e(entry.nextAttemptAt.slice(11, 19))}</span>`
    : '';
  return (
    `<div class="line"><strong>${e(entry.eventType)}</strong><span class="mono">${e(entry.eventId)}</span>` +
    `<span class="chip">attempt ${entry.attempt}</span>${statusChip(entry.status, entry.ok)}` +
    `<span>${e(outcome)}</span>${retry}</div>` +
    (entry.body === undefined
      ? ''
      : `<details><summary>Signed body</summary>${body('Body as signed and sent', entry.body, entry.bodyCut)}</details>`)
  );
}

function timerEntry(entry: JournalTimer): string {
  return `<div class="line"><strong class="mono">${e(entry.kind)}</strong><span class="mono">${e(entry.id)}</span> ran</div>`;
}

function helperEntry(entry: JournalHelper): string {
  const refused = entry.refused ? `<span class="chip bad">refused</span>` : '';
  return (
    `<div class="line"><strong class="mono">${e(entry.name)}</strong>${refused}</div>` +
    (entry.error ? `<p class="explain">${e(entry.error)}</p>` : '')
  );
}

function entryBody(entry: JournalEntry, model: InspectorModel): string {
  if (entry.type === 'request') return requestEntry(entry, model);
  if (entry.type === 'transition') return transitionEntry(entry);
  if (entry.type === 'webhook') return webhookEntry(entry);
  if (entry.type === 'timer') return timerEntry(entry);
  if (entry.type === 'helper') return helperEntry(entry);
  // An entry of a type this page does not know yet: its fields as JSON.
  return `<pre>${e(JSON.stringify(entry, null, 2))}</pre>`;
}

function failed(entry: JournalEntry): boolean {
  if (entry.type === 'request') return entry.status === 0 || entry.status >= 400;
  if (entry.type === 'webhook') return !entry.ok;
  return entry.type === 'helper' && entry.refused;
}

function timeline(model: InspectorModel): string {
  const { entries, matched, journal, query } = model;
  const shown =
    matched > entries.length
      ? `Showing the newest ${entries.length} of ${matched} matching entries, oldest first.`
      : `${matched} matching ${matched === 1 ? 'entry' : 'entries'}, oldest first.`;
  const items = entries.map((item) => {
    const { entry } = item;
    // Entries other than requests may carry an explanation too (why a transition or a helper did what it did).
    const why: unknown = (entry as { explain?: unknown }).explain;
    const text = typeof why === 'string' ? why : why && typeof why === 'object' ? JSON.stringify(why) : '';
    const explained = text && entry.type !== 'request' ? `<p class="explain">${e(text)}</p>` : '';
    return (
      `<li class="entry ${e(entry.type)}${failed(entry) ? ' failed' : ''}" data-seq="${entry.seq}" data-type="${e(entry.type)}">` +
      `<div class="line"><span class="seq">#${entry.seq}</span>${time(entry.at)}<span class="kind">${e(entry.type)}</span>` +
      `${idLinks(item, query)}</div>${entryBody(entry, model)}${explained}</li>`
    );
  });
  return (
    `<section id="timeline" aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>` +
    `<p class="note">${e(shown)} The journal keeps the last ${journal.limit} entries within ${Math.round(journal.budgetBytes / 1_048_576)} MiB (${journal.size} now${journal.dropped ? `; the ${journal.dropped} before them were let go` : ''}).</p>` +
    (items.length
      ? `<ol class="timeline">${items.join('')}</ol>`
      : '<p>Nothing yet matches these filters.</p>') +
    `</section>`
  );
}

function option(value: string, label: string, chosen: string | undefined): string {
  return `<option value="${e(value)}"${value === chosen ? ' selected' : ''}>${e(label)}</option>`;
}

function filters(model: InspectorModel): string {
  const { query } = model;
  const users = model.users.map((u) => option(u.id, u.label, query.userId));
  const transactions = model.transactions
    .filter((t) => !query.userId || t.userId === query.userId || t.id === query.transactionId)
    .map((t) => option(t.id, t.label, query.transactionId));
  const types = ENTRY_TYPES.map((t) => option(t, t, query.type));
  return (
    `<form class="filters" method="get" action="${e(INSPECTOR_PATH)}" aria-label="Filters">` +
    `<label>User<select name="userId">${option('', 'All users', query.userId ?? '')}${users.join('')}</select></label>` +
    `<label>Transaction<select name="transactionId">${option('', 'All transactions', query.transactionId ?? '')}${transactions.join('')}</select></label>` +
    `<label>Entries<select name="type">${option('', 'All types', query.type ?? '')}${types.join('')}</select></label>` +
    `<button class="primary" type="submit">Show</button><a href="${e(INSPECTOR_PATH)}">Clear filters</a></form>`
  );
}

function machine(focus: InspectorFocus): string {
  const next = nextStates(focus.graph, focus.state);
  const list = next.length
    ? `<ul class="plain next-states">${next
        .map((n) => `<li><strong class="mono">${e(n.to)}</strong>: ${e(n.events.join('; '))}</li>`)
        .join('')}</ul>`
    : '<p class="note">A final state: nothing moves it any more.</p>';
  return (
    `<div class="focus" data-kind="${e(focus.kind)}" data-id="${e(focus.id)}" data-current="${e(focus.state)}">` +
    `<h3>${e(focus.kind === 'user' ? 'User' : 'Transaction')} <span class="mono">${e(focus.id)}</span></h3>` +
    `<p class="note">${e(focus.about)}</p>` +
    `<p>${e(focus.graph.title)}: now <strong class="mono current-state">${e(focus.state)}</strong></p>` +
    drawMachine(focus.graph, focus.state) +
    `<h4>Can go next</h4>${list}</div>`
  );
}

function stateSection(model: InspectorModel): string {
  const legend =
    '<p class="legend"><span><span class="swatch"></span>current state</span>' +
    '<span><span class="swatch next"></span>can go next</span><span>thick border: final</span></p>';
  const body = model.focus.length
    ? legend + model.focus.map(machine).join('')
    : '<p class="note">Choose a user or a transaction above (or click an ID in the timeline) to see where it is on its state machine.</p>';
  return `<section id="state" aria-labelledby="state-title"><h2 id="state-title">Current state</h2>${body}</section>`;
}

/** How long until `at` from `now` on the virtual clock: "due now", "in 40 s", "in 9 min", "in 23 h 59 min". */
function dueIn(at: string, now: string): string {
  const seconds = Math.round((Date.parse(at) - Date.parse(now)) / 1000);
  if (seconds <= 0) return 'due now';
  if (seconds < 90) return `in ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `in ${minutes} min`;
  return `in ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function timersSection(model: InspectorModel): string {
  const rows = model.timers.map((timer) => {
    const about = [timer.ids.transactionId, timer.ids.eventId, timer.ids.userId].filter(Boolean).join(' ');
    const due = `<span title="${e(timer.at)}">${e(dueIn(timer.at, model.now))}</span>`;
    return `<tr><td>${due}</td><td class="mono">${e(timer.kind)}</td><td class="mono">${e(about || timer.id)}</td></tr>`;
  });
  const table = rows.length
    ? `<table><thead><tr><th>Due</th><th>Timer</th><th>For</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '<p class="note">No timer is waiting.</p>';
  return `<section id="timers" aria-labelledby="timers-title"><h2 id="timers-title">Pending timers (${rows.length})</h2>${table}</section>`;
}

function webhookEvent(event: DeepReadonly<WebhookEventRecord>): string {
  const attempts = event.deliveries.map((attempt, index) => {
    const signature = attempt.headers['x-service-signature'];
    return (
      `<li class="attempt"><div class="line"><span class="chip">attempt ${attempt.attempt}</span>${time(attempt.at)}` +
      `${statusChip(attempt.status, attempt.ok)}<span class="chip">${e(attempt.trigger)}</span>` +
      `${attempt.error ? `<span>${e(attempt.error)}</span>` : ''}</div>` +
      `<details><summary>Signed body${index === 0 ? '' : ` (attempt ${attempt.attempt})`}</summary>` +
      `<h4>POST ${e(attempt.url)}</h4>` +
      (signature ? `<h4>X-Service-Signature</h4><pre>${e(signature)}</pre>` : '') +
      `<pre>${e(attempt.body)}</pre></details></li>`
    );
  });
  const next = event.nextAttempt
    ? `<p class="note">Attempt ${event.nextAttempt.attempt} due ${e(event.nextAttempt.at)}</p>`
    : '';
  return (
    `<li class="event" data-event="${e(event.id)}"><div class="line"><strong>${e(event.eventType)}</strong>` +
    `<span class="mono">${e(event.id)}</span><span class="chip ${event.status === 'failed' ? 'bad' : event.status === 'delivered' ? 'ok' : 'warn'}">${e(event.status)}</span></div>` +
    (attempts.length ? `<ol class="plain">${attempts.join('')}</ol>` : '<p class="note">Not sent yet.</p>') +
    `${next}</li>`
  );
}

function webhooksSection(model: InspectorModel): string {
  const events = model.webhooks.map(webhookEvent);
  const list = events.length
    ? `<ul class="plain events">${events.join('')}</ul>`
    : '<p class="note">No webhook event yet (set a webhook URL with --webhook-url or POST /__mock/accounts/update).</p>';
  return `<section id="webhooks" aria-labelledby="webhooks-title"><h2 id="webhooks-title">Webhooks (${events.length})</h2>${list}</section>`;
}

/** The whole page; `nonce` is the one the content security policy allows its style and script by. */
export function renderInspector(model: InspectorModel, nonce: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>Inspector · inr-payouts mock</title>` +
    `<style nonce="${e(nonce)}">${INSPECTOR_STYLE}</style></head><body>` +
    `<header><h1>inr-payouts mock · Inspector</h1><span class="meta">virtual time ${e(model.now)}</span>` +
    `<span class="meta">${e(model.baseUrl)}</span></header>${filters(model)}` +
    `<div class="layout"><main>${timeline(model)}</main>` +
    `<aside>${stateSection(model)}${timersSection(model)}${webhooksSection(model)}</aside></div>` +
    `<script nonce="${e(nonce)}">${INSPECTOR_SCRIPT}</script></body></html>`
  );
}
