// One contract, every store: in memory, PostgreSQL through `pg` and through `postgres`, Redis through `redis`
// (node-redis) and through `ioredis`, each against a real server this file starts (test/setup/services.ts).
// The Redis rows need redis-server; without it they are skipped with the reason printed.

import { signWebhook } from 'inr-payouts/webhooks';
import {
  createWebhookHandler,
  memoryWebhookStore,
  postgresWebhookStore,
  redisWebhookStore,
  type WebhookStore,
} from 'inr-payouts/webhooks/handler';
import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import postgres from 'postgres';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningService, redisMissing, startPostgres, startRedis } from '../../setup/services.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const whyNoRedis = await redisMissing();
if (whyNoRedis) console.warn(`Redis store rows skipped: ${whyNoRedis}`);

let ids = 0;
/** A fresh event ID per test, so rows share one table or keyspace without meeting. */
const eventId = () => `evt_contract_${process.pid}_${++ids}`;

/** The contract every {@link WebhookStore} keeps; `make` gives the store under test. */
function contract(make: () => WebhookStore) {
  test('the first claim wins; a second claimant is told busy, with about the lease left', async () => {
    const store = make();
    const id = eventId();
    expect(await store.claim(id, 'a', 5_000)).toEqual({ state: 'claimed' });
    const busy = await store.claim(id, 'b', 5_000);
    expect(busy.state).toBe('busy');
    if (busy.state === 'busy') {
      expect(busy.retryAfterMs).toBeGreaterThan(3_000);
      expect(busy.retryAfterMs).toBeLessThanOrEqual(5_000);
    }
  });

  test('of many claims at once, exactly one wins', async () => {
    const store = make();
    const id = eventId();
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => store.claim(id, `t${i}`, 5_000)));
    expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'busy')).toHaveLength(24);
  });

  test('complete by the holder makes every later claim done; by anyone else it changes nothing', async () => {
    const store = make();
    const id = eventId();
    await store.claim(id, 'a', 5_000);
    expect(await store.complete(id, 'b')).toBe(false);
    expect((await store.claim(id, 'b', 5_000)).state).toBe('busy');
    expect(await store.complete(id, 'a')).toBe(true);
    expect(await store.claim(id, 'b', 5_000)).toEqual({ state: 'done' });
    expect(await store.complete(id, 'a')).toBe(false); // done is final
    expect(await store.renew(id, 'a', 5_000)).toBe(false);
  });

  test('release by the holder frees the event; by anyone else it changes nothing', async () => {
    const store = make();
    const id = eventId();
    await store.claim(id, 'a', 5_000);
    await store.release(id, 'b');
    expect((await store.claim(id, 'b', 5_000)).state).toBe('busy');
    await store.release(id, 'a');
    expect(await store.claim(id, 'b', 5_000)).toEqual({ state: 'claimed' });
  });

  test('a lease that is not renewed runs out: the next claimant takes over, the old holder can no longer finish', async () => {
    const store = make();
    const id = eventId();
    await store.claim(id, 'crashed', 150);
    await sleep(300);
    expect(await store.claim(id, 'b', 5_000)).toEqual({ state: 'claimed' });
    expect(await store.renew(id, 'crashed', 5_000)).toBe(false);
    expect(await store.complete(id, 'crashed')).toBe(false);
    await store.release(id, 'crashed');
    expect((await store.claim(id, 'c', 5_000)).state).toBe('busy');
    expect(await store.complete(id, 'b')).toBe(true);
  });

  test('renewing keeps the claim past its first lease', async () => {
    const store = make();
    const id = eventId();
    await store.claim(id, 'a', 300);
    for (let i = 0; i < 4; i++) {
      await sleep(150);
      expect(await store.renew(id, 'a', 300)).toBe(true);
    }
    // 600 ms after the claim, twice its first lease: still a's.
    expect((await store.claim(id, 'b', 300)).state).toBe('busy');
    expect(await store.renew(id, 'b', 300)).toBe(false);
  });
}

describe('memory store', () => {
  contract(() => memoryWebhookStore());

  test('forgets the oldest done events past maxEntries, never a live claim', async () => {
    const store = memoryWebhookStore({ maxEntries: 2 });
    await store.claim('live', 'a', 60_000);
    for (const id of ['d1', 'd2', 'd3']) {
      await store.claim(id, 'a', 60_000);
      await store.complete(id, 'a');
    }
    expect((await store.claim('live', 'b', 60_000)).state).toBe('busy');
    expect(await store.claim('d3', 'b', 60_000)).toEqual({ state: 'done' });
    expect(await store.claim('d1', 'b', 60_000)).toEqual({ state: 'claimed' }); // forgotten
  });
});

describe('PostgreSQL stores', () => {
  let server: RunningService;
  let pool: pg.Pool;
  let sql: postgres.Sql;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 10 });
    sql = postgres(server.url, { max: 10, onnotice: () => {} });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await sql?.end();
    await server?.stop();
  });

  describe('through pg', () => contract(() => postgresWebhookStore(pool)));
  describe('through postgres', () => contract(() => postgresWebhookStore(sql, { table: 'webhook_claims' })));

  test('replicas creating the table at once all succeed, and the table has one row per event', async () => {
    const stores = Array.from({ length: 4 }, () => postgresWebhookStore(pool, { table: 'race_created' }));
    const results = await Promise.all(stores.map((store, i) => store.claim('evt_race', `r${i}`, 5_000)));
    expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM race_created');
    expect(rows[0]).toEqual({ n: 1 });
  });

  test('complete inside the partner transaction: the mark rolls back with it, and commits with it', async () => {
    const store = postgresWebhookStore(pool);
    await store.claim('evt_tx', 'a', 5_000);
    await pool.query('CREATE TABLE IF NOT EXISTS paid (event_id text)');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("INSERT INTO paid VALUES ('evt_tx')");
      expect(await store.complete('evt_tx', 'a', client)).toBe(true);
      await client.query('ROLLBACK'); // as a crash before COMMIT would
      expect((await store.claim('evt_tx', 'b', 5_000)).state).toBe('busy'); // still a's claim, not done
      await client.query('BEGIN');
      await client.query("INSERT INTO paid VALUES ('evt_tx')");
      expect(await store.complete('evt_tx', 'a', client)).toBe(true);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await store.claim('evt_tx', 'b', 5_000)).toEqual({ state: 'done' });
    expect((await pool.query('SELECT count(*)::int AS n FROM paid')).rows[0]).toEqual({ n: 1 });
    // postgres's sql.begin: the same, committed.
    const viaSql = postgresWebhookStore(sql);
    await viaSql.claim('evt_tx_sql', 'a', 5_000);
    await sql.begin(async (tx) => {
      expect(await viaSql.complete('evt_tx_sql', 'a', tx)).toBe(true);
    });
    expect(await viaSql.claim('evt_tx_sql', 'b', 5_000)).toEqual({ state: 'done' });
  });

  test('a table name that is not a plain identifier is refused before any SQL', () => {
    expect(() => postgresWebhookStore(pool, { table: 'x; DROP TABLE users' })).toThrow(/lower-case name/);
  });
});

describe.skipIf(whyNoRedis !== undefined)('Redis stores', () => {
  let server: RunningService;
  let nodeRedis: ReturnType<typeof createClient>;
  let ioredis: IoRedis;
  beforeAll(async () => {
    server = await startRedis();
    nodeRedis = createClient({ url: server.url });
    await nodeRedis.connect();
    ioredis = new IoRedis(server.url);
  }, 30_000);
  afterAll(async () => {
    await nodeRedis?.quit();
    ioredis?.disconnect();
    await server?.stop();
  });

  describe('through redis (node-redis)', () => contract(() => redisWebhookStore(nodeRedis)));
  describe('through ioredis', () => contract(() => redisWebhookStore(ioredis, { prefix: 'io:' })));

  test("complete runs the partner's commands in the marking script, and only for the claim's holder", async () => {
    const store = redisWebhookStore(nodeRedis, { prefix: 'cmd:' });
    await store.claim('evt_cmd', 'a', 5_000);
    expect(await store.complete('evt_cmd', 'b', [['INCR', 'paid:evt_cmd']])).toBe(false);
    expect(await nodeRedis.get('paid:evt_cmd')).toBeNull();
    expect(
      await store.complete('evt_cmd', 'a', [
        ['INCR', 'paid:evt_cmd'],
        ['HSET', 'order:1', 'utr', 'UTR1'],
      ]),
    ).toBe(true);
    expect(await nodeRedis.get('paid:evt_cmd')).toBe('1');
    expect(await nodeRedis.hGet('order:1', 'utr')).toBe('UTR1');
    expect(await store.claim('evt_cmd', 'b', 5_000)).toEqual({ state: 'done' });
  });

  test('Redis paused 3 s while a claim is in flight: the function then runs with its whole lease', async () => {
    const pid = server.pid;
    if (pid === undefined) throw new Error('the Redis server has no process to pause');
    const secret = 'whsec_paused_store';
    const seen: boolean[] = [];
    const handler = createWebhookHandler({
      secret,
      store: redisWebhookStore(nodeRedis, { prefix: 'paused:' }),
      leaseMs: 2_000,
      on: {
        'user.created': async (_event, { signal }) => {
          seen.push(signal.aborted);
          await sleep(500);
          seen.push(signal.aborted);
        },
      },
    });
    const { body, signature } = signWebhook({
      payload: { id: eventId(), event: 'user.created', timestamp: new Date().toISOString(), data: {} },
      secret,
    });
    process.kill(pid, 'SIGSTOP');
    let answered: Promise<Response>;
    try {
      answered = handler(
        new Request('https://partner.example/webhooks', {
          method: 'POST',
          body,
          headers: { 'x-service-signature': signature, 'content-type': 'application/json' },
        }),
      );
      await sleep(3_000); // longer than the lease: a lease timed from before the claim had run out
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect((await answered).status).toBe(200);
    expect(seen).toEqual([false, false]);
  }, 20_000);

  test('a done event is kept doneTtlMs, and its key carries that expiry', async () => {
    const store = redisWebhookStore(ioredis, { prefix: 'ttl:', doneTtlMs: 60_000 });
    await store.claim('evt_ttl', 'a', 5_000);
    await store.complete('evt_ttl', 'a');
    const ttl = await ioredis.pttl('ttl:evt_ttl');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
