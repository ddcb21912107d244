/**
 * What {@link WebhookStore.claim} found: the event is now this delivery's (`claimed`), another delivery holds a
 * live lease on it (`busy`, for about `retryAfterMs` more), or it was processed already (`done`).
 */
export type ClaimResult =
  | { readonly state: 'claimed' }
  | { readonly state: 'busy'; readonly retryAfterMs: number }
  | { readonly state: 'done' };

/**
 * Where `createWebhookHandler` claims event IDs, shared by every replica of a receiver. Each method is one atomic
 * step of the store (a statement, a `SET NX`, a script): two replicas can never both claim one event. A claim is a
 * lease: it ends at `leaseMs` unless renewed, so a replica that crashed mid-handler gives the event back. `token`
 * names the claimant; renew, complete and release change nothing unless the claim is still that token's.
 *
 * Ready-made: {@link memoryWebhookStore} (one process), `postgresWebhookStore` and `redisWebhookStore`.
 *
 * @example
 * ```ts
 * import { memoryWebhookStore, type WebhookStore } from 'inr-payouts/webhooks/handler';
 *
 * const store: WebhookStore = memoryWebhookStore();
 * console.log((await store.claim('evt_1', 'replica-a', 10_000)).state); // claimed
 * console.log((await store.claim('evt_1', 'replica-b', 10_000)).state); // busy
 * await store.complete('evt_1', 'replica-a');
 * console.log((await store.claim('evt_1', 'replica-b', 10_000)).state); // done
 * ```
 */
export interface WebhookStore<Within = never> {
  /** Claims `eventId` for `leaseMs` if nobody holds a live lease on it and it is not done. */
  claim(eventId: string, token: string, leaseMs: number): Promise<ClaimResult>;
  /** Extends the lease to `leaseMs` from now; false when the claim is no longer `token`'s. */
  renew(eventId: string, token: string, leaseMs: number): Promise<boolean>;
  /**
   * Marks the event done for good; false when the claim is no longer `token`'s. `within` makes the mark part of the
   * partner's own atomic step (a PostgreSQL transaction's client, Redis commands run in the same script).
   */
  complete(eventId: string, token: string, within?: Within): Promise<boolean>;
  /** Gives the claim up, so the next delivery runs the handler again; nothing when it is not `token`'s. */
  release(eventId: string, token: string): Promise<void>;
}

/** Options of {@link memoryWebhookStore}. */
export interface MemoryWebhookStoreOptions {
  /** Bound of the store: past it the oldest done events are forgotten first. Default 10,000. */
  maxEntries?: number;
  /** The clock, in milliseconds (for tests). Default `Date.now`. */
  now?: () => number;
}

type Entry = { token: string; until: number } | { token: undefined; until: number };

/**
 * The default store: in this process's memory, bounded. Right for a single replica; with several, each would
 * claim the same event, so share a {@link WebhookStore} in PostgreSQL or Redis instead.
 *
 * @example
 * ```ts
 * import { createWebhookHandler, memoryWebhookStore } from 'inr-payouts/webhooks/handler';
 *
 * const handle = createWebhookHandler({
 *   secret: 'whsec_example',
 *   store: memoryWebhookStore({ maxEntries: 50_000 }),
 *   on: { 'user.created': async (event) => console.log(event.data.userId) },
 * });
 * ```
 */
export function memoryWebhookStore(options: MemoryWebhookStoreOptions = {}): WebhookStore {
  const { maxEntries = 10_000, now = Date.now } = options;
  if (!(maxEntries >= 1)) throw new RangeError('memoryWebhookStore: maxEntries must be at least 1.');
  // A done event has no token. A Map keeps insertion order, so its first keys are the oldest.
  const entries = new Map<string, Entry>();
  const held = (id: string, token: string) => {
    const entry = entries.get(id);
    return entry !== undefined && entry.token === token ? entry : undefined;
  };
  return {
    async claim(id, token, leaseMs) {
      const time = now();
      const entry = entries.get(id);
      if (entry?.token === undefined && entry !== undefined) return { state: 'done' };
      if (entry !== undefined && entry.until > time)
        return { state: 'busy', retryAfterMs: entry.until - time };
      entries.delete(id);
      entries.set(id, { token, until: time + leaseMs });
      // Evicting a live lease could let a second replica in; only done events are forgotten.
      for (const [oldest, value] of entries) {
        if (entries.size <= maxEntries) break;
        if (value.token === undefined) entries.delete(oldest);
      }
      return { state: 'claimed' };
    },
    async renew(id, token, leaseMs) {
      const entry = held(id, token);
      if (entry !== undefined) entry.until = now() + leaseMs;
      return entry !== undefined;
    },
    async complete(id, token) {
      if (held(id, token) === undefined) return false;
      entries.set(id, { token: undefined, until: Number.POSITIVE_INFINITY });
      return true;
    },
    async release(id, token) {
      if (held(id, token) !== undefined) entries.delete(id);
    },
  };
}
