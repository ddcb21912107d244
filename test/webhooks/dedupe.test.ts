import { createDeduplicator, type DeduplicationStore } from 'inr-payouts/webhooks';
import { expect, test } from 'vitest';

test('the first delivery is new, every later one a duplicate', async () => {
  const dedupe = createDeduplicator();
  expect(await dedupe.seen({ id: 'evt_1' })).toBe(false);
  expect(await dedupe.seen({ id: 'evt_1' })).toBe(true);
  expect(await dedupe.seen('evt_1')).toBe(true); // the X-Service-Event-Id header works as well
  expect(await dedupe.seen({ id: 'evt_2' })).toBe(false);
});

test('forget lets a retry through after a failed handler', async () => {
  const dedupe = createDeduplicator();
  expect(await dedupe.seen({ id: 'evt_1' })).toBe(false);
  await dedupe.forget({ id: 'evt_1' });
  expect(await dedupe.seen({ id: 'evt_1' })).toBe(false);
  expect(await dedupe.seen({ id: 'evt_1' })).toBe(true);
});

test('the in-memory store is bounded: the oldest IDs go first', async () => {
  const dedupe = createDeduplicator({ maxEntries: 3 });
  for (const id of ['a', 'b', 'c', 'd']) expect(await dedupe.seen(id)).toBe(false);
  // 'a' was evicted when 'd' came in; 'b', 'c', 'd' are remembered.
  expect(await dedupe.seen('d')).toBe(true);
  expect(await dedupe.seen('c')).toBe(true);
  expect(await dedupe.seen('b')).toBe(true);
  expect(await dedupe.seen('a')).toBe(false);
  // ...and now 'b' made room for 'a'.
  expect(await dedupe.seen('b')).toBe(false);
});

test('a duplicate does not refresh its place, so the bound holds under retries', async () => {
  const dedupe = createDeduplicator({ maxEntries: 2 });
  await dedupe.seen('a');
  await dedupe.seen('b');
  await dedupe.seen('a'); // duplicate
  await dedupe.seen('c'); // evicts 'a', the oldest insert
  expect(await dedupe.seen('a')).toBe(false);
});

test('ttlSeconds expires IDs on the store clock', async () => {
  let now = 0;
  const dedupe = createDeduplicator({ ttlSeconds: 60, now: () => now });
  expect(await dedupe.seen('evt_1')).toBe(false);
  now = 59_999;
  expect(await dedupe.seen('evt_1')).toBe(true);
  now = 60_000;
  expect(await dedupe.seen('evt_1')).toBe(false);
  now = 60_001;
  expect(await dedupe.seen('evt_1')).toBe(true);
});

test('a custom async store gets the ID and the TTL, and its answer decides', async () => {
  const calls: unknown[] = [];
  const ids = new Set<string>();
  const store: DeduplicationStore = {
    add: async (id, ttl) => {
      calls.push(['add', id, ttl]);
      if (ids.has(id)) return false;
      ids.add(id);
      return true;
    },
    delete: async (id) => {
      calls.push(['delete', id]);
      return ids.delete(id);
    },
  };
  const dedupe = createDeduplicator({ store, ttlSeconds: 3600 });
  expect(await dedupe.seen({ id: 'evt_1' })).toBe(false);
  expect(await dedupe.seen({ id: 'evt_1' })).toBe(true);
  await dedupe.forget('evt_1');
  expect(calls).toEqual([
    ['add', 'evt_1', 3600],
    ['add', 'evt_1', 3600],
    ['delete', 'evt_1'],
  ]);
});

test('concurrent deliveries of one event: exactly one is new (the store add is the single decision)', async () => {
  const dedupe = createDeduplicator();
  const results = await Promise.all(Array.from({ length: 10 }, () => dedupe.seen({ id: 'evt_1' })));
  expect(results.filter((duplicate) => !duplicate)).toHaveLength(1);
});

test('an event without an ID is a programming error, said clearly', async () => {
  const dedupe = createDeduplicator();
  await expect(dedupe.seen({ id: '' })).rejects.toThrow(/no id/);
  await expect(dedupe.seen(undefined as unknown as string)).rejects.toThrow(TypeError);
  expect(() => createDeduplicator({ maxEntries: 0 })).toThrow(RangeError);
});

test('the default bound is 10,000', async () => {
  const dedupe = createDeduplicator();
  for (let i = 0; i <= 10_000; i++) await dedupe.seen(`evt_${i}`);
  expect(await dedupe.seen('evt_0')).toBe(false); // evicted by the 10,001st
  expect(await dedupe.seen('evt_10000')).toBe(true);
});
