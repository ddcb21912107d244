/**
 * Where a {@link Deduplicator} remembers event IDs. The default keeps them in memory, bounded; share one store
 * (Redis, a database table with a unique key) when several processes receive webhooks.
 *
 * @example
 * ```ts
 * import type { DeduplicationStore } from 'inr-payouts/webhooks';
 *
 * // Redis (node-redis): SET NX is atomic, so two concurrent deliveries cannot both win.
 * interface Redis { set(key: string, value: string, options: object): Promise<string | null>; del(key: string): Promise<number> }
 * const redisStore = (redis: Redis): DeduplicationStore => ({
 *   add: async (id, ttlSeconds) => (await redis.set(`webhook:${id}`, '1', { NX: true, EX: ttlSeconds ?? 86_400 })) === 'OK',
 *   delete: (id) => redis.del(`webhook:${id}`),
 * });
 * ```
 */
export interface DeduplicationStore {
  /** Records `id`; true when it was not there yet. Make it atomic in a shared store (SET NX, INSERT ... ON CONFLICT). */
  add(id: string, ttlSeconds: number | undefined): boolean | Promise<boolean>;
  /** Removes `id`, so that a redelivery is processed again (after the handler failed). */
  delete(id: string): unknown;
}

/**
 * Options of {@link createDeduplicator}.
 *
 * @example
 * ```ts
 * import type { DeduplicatorOptions } from 'inr-payouts/webhooks';
 *
 * const options: DeduplicatorOptions = { maxEntries: 50_000, ttlSeconds: 7 * 24 * 3600 };
 * ```
 */
export interface DeduplicatorOptions {
  /** Default: in memory, in this process. */
  store?: DeduplicationStore;
  /** Bound of the in-memory store; the oldest IDs are forgotten first. Default 10,000. */
  maxEntries?: number;
  /** How long an ID is remembered. Default: until evicted by `maxEntries` (in memory) or as the store decides. */
  ttlSeconds?: number;
  /** Clock of the in-memory store, in milliseconds (for tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * Drops repeated deliveries of one event (spec 6.4: "events may be delivered more than once"), keyed by the
 * event ID.
 */
export interface Deduplicator {
  /** Whether this event ID was seen before; marks it seen. Pass the verified event, or its ID. */
  seen(event: { readonly id: string } | string): Promise<boolean>;
  /** Unmarks the ID: call it when handling failed, before answering non-2xx, so the retry is processed. */
  forget(event: { readonly id: string } | string): Promise<void>;
}

/**
 * Creates a {@link Deduplicator}. Mark an event before handling it, and `forget` it if handling fails, so the
 * service's retry is not dropped as a duplicate.
 *
 * @example
 * ```ts
 * import { createDeduplicator, signWebhook, verifyWebhook } from 'inr-payouts/webhooks';
 *
 * const secret = 'whsec_example';
 * const dedupe = createDeduplicator({ maxEntries: 1000 });
 * const { body, header } = signWebhook({
 *   payload: { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1',
 *     data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } },
 *   secret,
 * });
 * for (const delivery of [body, body]) {
 *   const event = verifyWebhook(delivery, header, secret);
 *   if (await dedupe.seen(event)) continue; // the second delivery
 *   try {
 *     console.log('handling', event.id); // enqueue the work
 *   } catch (error) {
 *     await dedupe.forget(event);
 *     throw error;
 *   }
 * }
 * ```
 */
export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const { maxEntries = 10_000, ttlSeconds } = options;
  if (!(maxEntries >= 1)) throw new RangeError('createDeduplicator: maxEntries must be at least 1.');
  const store = options.store ?? memoryStore(maxEntries, options.now ?? Date.now);
  return {
    seen: async (event) => !(await store.add(idOf(event), ttlSeconds)),
    forget: async (event) => {
      await store.delete(idOf(event));
    },
  };
}

function idOf(event: { readonly id: string } | string): string {
  const id = typeof event === 'string' ? event : event?.id;
  if (typeof id !== 'string' || id === '') {
    throw new TypeError(
      'Deduplicator: the event has no id. Pass the verified event or its X-Service-Event-Id.',
    );
  }
  return id;
}

// A Map keeps insertion order, so its first key is the oldest: evicting it bounds memory in O(1).
function memoryStore(maxEntries: number, now: () => number): DeduplicationStore {
  const expiries = new Map<string, number>();
  return {
    add(id, ttlSeconds) {
      const time = now();
      const expiry = expiries.get(id);
      if (expiry !== undefined && expiry > time) return false;
      expiries.delete(id);
      expiries.set(id, ttlSeconds === undefined ? Number.POSITIVE_INFINITY : time + ttlSeconds * 1000);
      if (expiries.size > maxEntries) {
        for (const oldest of expiries.keys()) {
          expiries.delete(oldest);
          break;
        }
      }
      return true;
    },
    delete: (id) => expiries.delete(id),
  };
}
