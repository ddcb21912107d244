/**
 * What the inspector page shows, read from one service: the journal (filtered by user, transaction and entry
 * type), the users and transactions to filter by, the pending timers, the webhook events with their delivery
 * attempts, and the current state of the chosen user or transaction on its state machine. It reads the state
 * and the journal directly, never through the helpers, so opening the page adds nothing to the journal.
 */
import type { JournalEntry } from '../../engine/journal.js';
import { MACHINE_GRAPHS, type MachineGraph } from '../../machines/graphs.js';
import type { MockService } from '../../service.js';
import type { DeepReadonly, MockState } from '../../state/mock-state.js';
import { stringField } from '../../state/records.js';
import type { WebhookEventRecord } from '../../state/webhooks.js';

/** The entry types the page can filter on. */
export const ENTRY_TYPES: readonly JournalEntry['type'][] = [
  'request',
  'transition',
  'webhook',
  'timer',
  'helper',
];

/** The most timeline entries, users and transactions the page lists by default (the newest). */
export const INSPECTOR_SHOWN = 500;

/** The page's filters, from its query string. */
export interface InspectorQuery {
  userId?: string;
  transactionId?: string;
  type?: JournalEntry['type'];
  /** How many of the newest matching entries to show. */
  limit: number;
}

/** The filters named in `search`; an empty or unknown value is no filter. */
export function readQuery(search: URLSearchParams): InspectorQuery {
  const text = (name: string) => search.get(name)?.trim() || undefined;
  const type = text('type');
  const limit = Number(text('limit'));
  return {
    userId: text('userId'),
    transactionId: text('transactionId'),
    type: ENTRY_TYPES.find((known) => known === type),
    limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 10_000) : INSPECTOR_SHOWN,
  };
}

/** One machine to draw: the thing, where it is now, and its graph. */
export interface InspectorFocus {
  kind: 'user' | 'transaction';
  id: string;
  /** Its current state, in the graph's words. */
  state: string;
  graph: MachineGraph;
  /** A line about it (a user's name and KYC level, a transaction's amount). */
  about: string;
}

type State = DeepReadonly<MockState>;

/** The user of a transaction, from the state. */
const userOf = (state: State, transactionId: string | undefined) =>
  transactionId === undefined ? undefined : state.transactions.byId[transactionId]?.userId;

function matches(ids: { userId?: string; transactionId?: string }, query: InspectorQuery): boolean {
  return (
    (query.userId === undefined || ids.userId === query.userId) &&
    (query.transactionId === undefined || ids.transactionId === query.transactionId)
  );
}

/** The last `count` items, plus `chosen` when it is further back (so the filter still shows it). */
function newest<T extends { id: string }>(items: T[], count: number, chosen: string | undefined): T[] {
  const kept = items.slice(-count);
  const extra = chosen && !kept.some((item) => item.id === chosen) && items.find((i) => i.id === chosen);
  return extra ? [extra, ...kept] : kept;
}

function graphById(id: string): MachineGraph {
  const graph = MACHINE_GRAPHS.find((g) => g.id === id);
  if (!graph) throw new Error(`No machine graph ${id}`);
  return graph;
}

function focusOf(state: State, query: InspectorQuery): InspectorFocus[] {
  const focus: InspectorFocus[] = [];
  const user = query.userId ? state.users.byId[query.userId] : undefined;
  if (user) {
    const kyc = state.kyc.byUserId[user.id];
    focus.push({
      kind: 'user',
      id: user.id,
      state: kyc?.status ?? 'pending',
      graph: graphById('kyc-aggregate'),
      about: `${user.name ?? 'no name'}, ${user.mobile}: KYC level ${kyc?.level ?? 'none'}`,
    });
  }
  const txn = query.transactionId ? state.transactions.byId[query.transactionId] : undefined;
  if (txn) {
    focus.push({
      kind: 'transaction',
      id: txn.id,
      state: txn.status,
      graph: graphById(`transaction-${txn.kind}`),
      about: `${txn.kind}, ${txn.amount} ${txn.asset.toUpperCase()} on ${txn.network}, user ${txn.userId}`,
    });
  }
  return focus;
}

function eventIds(event: DeepReadonly<WebhookEventRecord>, state: State) {
  const { transactionId } = event;
  return {
    userId: stringField(event.envelope.data, 'userId') ?? userOf(state, transactionId),
    transactionId,
  };
}

/** The pending timers as the page lists them, each with the user, transaction and event it is about. */
function timersOf(state: State) {
  return state.timers.map((timer) => {
    const eventId = stringField(timer.payload, 'eventId');
    const event = eventId ? state.webhooks.byId[eventId] : undefined;
    const transactionId = stringField(timer.payload, 'transactionId') ?? event?.transactionId;
    const userId =
      stringField(timer.payload, 'userId') ??
      (event ? eventIds(event, state).userId : undefined) ??
      userOf(state, transactionId);
    return {
      id: timer.id,
      kind: timer.kind,
      at: new Date(timer.at).toISOString(),
      ids: { userId, transactionId, eventId },
    };
  });
}

/** Everything the page shows. */
export type InspectorModel = ReturnType<typeof inspectorModel>;

/** Reads what the page shows from `service`, filtered by `query`. */
export function inspectorModel(service: MockService, query: InspectorQuery) {
  const { state } = service;
  const { size, limit, budgetBytes, dropped } = service.journal;
  const filtered = query.userId !== undefined || query.transactionId !== undefined;
  // The journal answers copies: read it once per page. Oldest first by virtual time: a webhook attempt is
  // journalled when its answer comes but dated when it was sent, so the journal's order can differ from time's.
  const all = service.journal
    .entries(query.type ? { type: query.type } : {})
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.seq - b.seq));
  // The user and transaction an entry is about: the ones it names (a request's entry names those its path, body
  // or answer name), and a transaction's user from the state.
  const about = all.map((entry) => {
    const { transactionId } = entry;
    return { entry, userId: entry.userId ?? userOf(state, transactionId), transactionId };
  });
  const matching = filtered ? about.filter((item) => matches(item, query)) : about;
  const users = Object.values(state.users.byId).map((u) => ({
    id: u.id,
    label: `${u.id} · ${u.name ?? 'no name'} · ${u.mobile}`,
  }));
  const transactions = Object.values(state.transactions.byId).map((t) => ({
    id: t.id,
    userId: t.userId,
    label: `${t.id} · ${t.status} · ${t.amount} ${t.asset.toUpperCase()}`,
  }));
  return {
    baseUrl: service.baseUrl,
    /** The virtual time. */
    now: new Date(state.clock.now).toISOString(),
    query,
    /** The journal's window: entries kept, the most kept, its byte budget, and how many older ones went. */
    journal: { size, limit, budgetBytes, dropped },
    /** Users to filter by, newest last (at most {@link INSPECTOR_SHOWN}, plus the chosen one). */
    users: newest(users, INSPECTOR_SHOWN, query.userId),
    /** Transactions to filter by, newest last (as `users`). */
    transactions: newest(transactions, INSPECTOR_SHOWN, query.transactionId),
    /** The matching entries, oldest first: the newest `query.limit` of `matched`. */
    entries: matching.slice(-query.limit),
    /** How many entries matched the filters. */
    matched: matching.length,
    timers: timersOf(state).filter((timer) => matches(timer.ids, query)),
    webhooks: Object.values(state.webhooks.byId)
      .filter((event) => matches(eventIds(event, state), query))
      .slice(-INSPECTOR_SHOWN),
    focus: focusOf(state, query),
  };
}
