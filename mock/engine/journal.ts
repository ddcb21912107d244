/**
 * The journal: what the mock did, in order, on the virtual clock. Every API request, every transaction
 * transition, every webhook attempt, every timer that ran and every helper call is one entry. It lives in
 * memory beside the state, never in it (snapshots stay small), and keeps a window of the newest entries: at
 * most {@link JOURNAL_LIMIT} of them and at most its byte budget ({@link JOURNAL_BUDGET_BYTES} unless set
 * otherwise), so a server running for weeks never grows it past the bound. Sequence numbers run on from 1
 * with no gap, so the first kept entry's `seq` (and `dropped`) says where the window starts.
 *
 * Requests and transitions reach it from the service's stream (journal-feed.ts). Webhook attempts, which are
 * completed after they are recorded, are written where they happen, in the journal of the service delivering them.
 */

import type { MockState } from '../state/mock-state.js';
import type { Explanation } from './explain.js';
import { isoAt } from './timers.js';
import { createWindow } from './window.js';

/** How many entries the journal keeps: the oldest are dropped beyond it. */
export const JOURNAL_LIMIT = 10_000;

/**
 * The journal's default byte budget (16 MiB): entries are let go oldest first past it, as past
 * {@link JOURNAL_LIMIT}. An entry counts as its bodies' characters plus 400 bytes for the entry itself.
 * `createMockService({ budgets: { journalBytes } })` and `inr-payouts-mock --journal-budget <MB>` change it.
 */
export const JOURNAL_BUDGET_BYTES = 16 * 1024 * 1024;

/** What an entry costs beyond its strings' characters: its object, its fixed fields, the ring's slot. */
const ENTRY_OVERHEAD_BYTES = 400;

/**
 * The most characters of one body an entry keeps (a request's body, its answer's body, a webhook's signed
 * body); a longer one keeps its first {@link JOURNAL_BODY_LIMIT} characters and is marked cut. With at most
 * two bodies an entry, the bodies of a full journal stay under 2 × 2,048 × 10,000 characters (about 40 MB
 * at worst, a few MB in a typical run whose bodies are a few hundred characters).
 */
export const JOURNAL_BODY_LIMIT = 2_048;

/** `text` as an entry keeps it: whole, or its first {@link JOURNAL_BODY_LIMIT} characters and `cut: true`. */
export function capBody(text: string): { text: string; cut: boolean } {
  // A slice of a long string may keep the whole string alive (V8 slices share their parent): the start is
  // copied, so an entry holds 2,048 characters of a 1 MB body, not the megabyte.
  return text.length > JOURNAL_BODY_LIMIT
    ? { text: JSON.parse(JSON.stringify(text.slice(0, JOURNAL_BODY_LIMIT))) as string, cut: true }
    : { text, cut: false };
}

/** The bytes an entry counts for: its strings' characters (bodies, path, explanation line) and a fixed cost. */
function entryBytes(entry: JournalEntry): number {
  let bytes = ENTRY_OVERHEAD_BYTES;
  // for-in, not Object.values: an entry is recorded per request, and the array of its values was garbage at once.
  for (const name in entry) {
    const value = entry[name as keyof JournalEntry];
    if (typeof value === 'string') bytes += value.length;
  }
  return bytes;
}

/** Fields every entry has. */
interface EntryBase {
  /** 1, 2, 3… for the life of the service (reset and restore do not restart it). */
  seq: number;
  /** Virtual time, ISO 8601 UTC. */
  at: string;
  userId?: string;
  transactionId?: string;
}

/** One API request the pipeline answered. */
export interface JournalRequest extends EntryBase {
  type: 'request';
  method: string;
  /** The path relative to the base URL. */
  path: string;
  /** The route's pattern, such as `/v2/transactions/:transactionId`. */
  route: string;
  /** 0 when a fault dropped the connection. */
  status: number;
  idempotencyKey?: string;
  /** The answer is a stored one (`Idempotent-Replayed: true`). */
  replayed?: boolean;
  rateLimit?: { limit: number; remaining: number; reset: number };
  /** The kind of fault injected into this request, if any. */
  fault?: string;
  /** Why the mock refused the request, or which sandbox value chose its answer: the `X-Mock-Explain` line. */
  explain?: string;
  /** The query string, with its `?`, when the request had one. */
  query?: string;
  /** The request's body as sent, when it had one (at most its first 2,048 characters). */
  requestBody?: string;
  /** The answer's JSON body (at most its first 2,048 characters); absent for a dropped connection. */
  responseBody?: string;
  /** `requestBody` is only the start of a longer body. */
  requestBodyCut?: boolean;
  /** `responseBody` is only the start of a longer body. */
  responseBodyCut?: boolean;
  /** The same explanation, structured. */
  explanation?: Explanation;
}

/** One transition of a stored resource's state machine. */
export interface JournalTransition extends EntryBase {
  type: 'transition';
  /**
   * What moved: a machine of `MACHINE_GRAPHS` by its id (`kyc-aggregate`, `digilocker-session`, `face-session`,
   * `webhook-delivery` with `id` the event),
   * `transaction` (its graph is `machine`), or a machine without a diagram: `kyc-step` (one KYC or contact
   * verification step of a user, `id` the step), `aadhaar-otp`, `document-upload`, `attribution`, `sweep`.
   */
  resource: TransitionResource;
  id: string;
  /** The `MACHINE_GRAPHS` id whose diagram shows this transition, when there is one. */
  machine?: string;
  from: string;
  to: string;
  /** The machine event that moved it. */
  trigger: string;
  /** What else changed with it, in words (the KYC level beside the aggregate status). */
  detail?: string;
  /** Which rule or sandbox value decided the move, when one did (a payout failed by the sandbox amount). */
  explanation?: Explanation;
}

/** A transition as an operation gives it. */
export type TransitionDraft = Omit<JournalTransition, 'type' | 'seq' | 'at'>;

/** Every resource a transition entry names. */
export type TransitionResource =
  | 'transaction'
  | 'kyc-step'
  | 'kyc-aggregate'
  | 'digilocker-session'
  | 'face-session'
  | 'webhook-delivery'
  | 'aadhaar-otp'
  | 'document-upload'
  | 'attribution'
  | 'sweep';

/** One webhook delivery attempt, with its answer. */
export interface JournalWebhook extends EntryBase {
  type: 'webhook';
  eventId: string;
  eventType: string;
  attempt: number;
  ok: boolean;
  /** The receiver's HTTP status; absent when it did not answer. */
  status?: number;
  /** `timeout` or the network error, when it did not answer. */
  error?: string;
  /** When the next attempt is scheduled (ISO), if there is one. */
  nextAttemptAt?: string;
  /** The signed body exactly as POSTed (at most its first 2,048 characters). */
  body?: string;
  /** `body` is only the start of a longer body. */
  bodyCut?: boolean;
}

/** One timer that ran. */
export interface JournalTimer extends EntryBase {
  type: 'timer';
  kind: string;
  id: string;
}

/** One helper call. */
export interface JournalHelper extends EntryBase {
  type: 'helper';
  /** `group.action`, or a top-level name such as `reset`. */
  name: string;
  /** The helper threw (or its promise rejected). */
  refused: boolean;
  /** The error's message, when refused. */
  error?: string;
  /** Which rule refused it, for a transition the state does not allow. */
  explanation?: Explanation;
}

/** One journal entry. */
export type JournalEntry = JournalRequest | JournalTransition | JournalWebhook | JournalTimer | JournalHelper;

/** An entry as a call site gives it: the journal adds `seq` and `at`. */
type Draft<E> = E extends JournalEntry ? Omit<E, 'seq' | 'at'> : never;

/** An entry's kind: `request`, `transition`, `webhook`, `timer` or `helper`. */
export type JournalEntryType = JournalEntry['type'];

/** The entries of one kind (all of them for the whole union). */
export type JournalEntryOf<T extends JournalEntryType> = Extract<JournalEntry, { type: T }>;

/** Which entries to read: all given filters must match. */
export interface JournalFilter<T extends JournalEntryType = JournalEntryType> {
  /** Only entries of this kind; the answer is typed as that kind's entries. */
  type?: T;
  userId?: string;
  transactionId?: string;
  /** Only entries after this sequence number. */
  since?: number;
}

/** The journal of one service. */
export interface Journal {
  /** The most entries kept: {@link JOURNAL_LIMIT}. */
  readonly limit: number;
  /** The most bytes the kept entries count for ({@link JOURNAL_BUDGET_BYTES} unless set otherwise). */
  readonly budgetBytes: number;
  /** How many entries are kept now. */
  readonly size: number;
  /** The bytes the kept entries count for now. */
  readonly bytes: number;
  /** How many entries were let go, oldest first, to stay within the limit and the budget: the window starts at `seq` dropped + 1. */
  readonly dropped: number;
  /** Adds an entry at the state's virtual time; returns it, so a call site can complete it later. */
  record<E extends JournalEntry>(state: MockState, draft: Draft<E>): E;
  /** The kept entries, oldest first, filtered (copies: changing them changes nothing); `type` narrows them. */
  entries<T extends JournalEntryType = JournalEntryType>(filter?: JournalFilter<T>): JournalEntryOf<T>[];
}

/** The journal's entries in a bounded window (window.ts): the newest {@link JOURNAL_LIMIT} within `budgetBytes`. */
export function createJournal(budgetBytes: number): Journal {
  const window = createWindow<JournalEntry>({ limit: JOURNAL_LIMIT, budgetBytes });
  return {
    limit: window.limit,
    budgetBytes: window.budgetBytes,
    get size() {
      return window.size;
    },
    get bytes() {
      return window.bytes;
    },
    get dropped() {
      return window.dropped;
    },
    record<E extends JournalEntry>(state: MockState, draft: Draft<E>): E {
      // A draft of E plus the two fields the journal owns is an E; the checker cannot see through Omit.
      // isoAt keeps the last string: a clock step records thousands of entries at one instant.
      const entry = { seq: window.total + 1, at: isoAt(state.clock.now), ...draft } as unknown as E;
      window.push(entry, entryBytes(entry));
      return entry;
    },
    entries<T extends JournalEntryType>(filter: JournalFilter<T> = {}): JournalEntryOf<T>[] {
      const { type, userId, transactionId, since } = filter;
      const out: JournalEntryOf<T>[] = [];
      for (const e of window.items()) {
        if (
          (type === undefined || e.type === type) &&
          (userId === undefined || e.userId === userId) &&
          (transactionId === undefined || e.transactionId === transactionId) &&
          (since === undefined || e.seq > since)
        )
          // The type filter above is what makes `e` one of T's entries.
          out.push(structuredClone(e) as JournalEntryOf<T>);
      }
      return out;
    },
  };
}
