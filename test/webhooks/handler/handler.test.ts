import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { format } from 'node:util';
import { signWebhook } from 'inr-payouts/webhooks';
import {
  createWebhookHandler,
  memoryWebhookStore,
  postgresWebhookStore,
  type RedisCommands,
  redisWebhookStore,
  toNodeHandler,
  type WebhookHandlerOptions,
  type WebhookStore,
} from 'inr-payouts/webhooks/handler';
import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type RunningService, redisMissing, startPostgres, startRedis } from '../../setup/services.js';
import { type PgWithin, pgWork, redisWork } from '../../support/replica-work.js';
import { postSigned, signedUserCreated } from '../../support/webhook-delivery.js';

const whyNoRedis = await redisMissing();
// createWebhookHandler's semantics, one by one, on the in-memory store (the stores' own contract is
// stores.test.ts; many replicas on PostgreSQL and Redis is test/slow/webhook-replicas.test.ts).

const secret = 'whsec_handler_test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function delivery(overrides: Record<string, unknown> = {}, key = secret): Request {
  const { body, signature } = signWebhook({
    payload: {
      id: 'evt_1',
      event: 'transaction.payout_completed',
      timestamp: new Date().toISOString(),
      partnerId: 'p_1',
      data: { transactionId: 'txn_1', utr: 'UTR1', amount: 8450 },
      ...overrides,
    },
    secret: key,
  });
  return new Request('https://partner.example/webhooks', {
    method: 'POST',
    body,
    headers: { 'x-service-signature': signature, 'content-type': 'application/json' },
  });
}

function handlerWith(options: Partial<WebhookHandlerOptions>) {
  const errors: unknown[] = [];
  const lines: string[] = [];
  const handle = createWebhookHandler({
    secret,
    on: {},
    onError: (error) => errors.push(error),
    logger: {
      warn: (line, ...details) => lines.push(['warn', line, ...details.map(String)].join(' ')),
      error: (line, ...details) => lines.push(['error', line, ...details.map(String)].join(' ')),
    },
    ...options,
  });
  return { handle, errors, lines };
}

/** A request whose body is `chunks`, then (if given) ends as `then` says: an error, or never. */
function streamed(chunks: string[], then?: 'error' | 'stall'): Request {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (then === 'error') controller.error(new Error('aborted'));
      else if (then === undefined) controller.close();
    },
  });
  return new Request('https://partner.example/webhooks', {
    method: 'POST',
    body,
    headers: { 'x-service-signature': 't=1,v1=00' },
    duplex: 'half',
  } as RequestInit);
}

describe('one delivery', () => {
  test('runs the typed function, then answers 200; the same event again answers 200 at once and runs nothing', async () => {
    const utrs: string[] = [];
    const { handle } = handlerWith({
      on: { 'transaction.payout_completed': async (event) => void utrs.push(event.data.utr) },
    });
    const first = await handle(delivery());
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    const again = await handle(delivery());
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(utrs).toEqual(['UTR1']);
  });

  test('a function that throws: 500, the claim released, and the retry runs it again', async () => {
    let calls = 0;
    const { handle, errors } = handlerWith({
      on: {
        'transaction.payout_completed': async () => {
          calls++;
          if (calls === 1) throw new Error('ledger down');
        },
      },
    });
    const failed = await handle(delivery());
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'handler_failed' });
    expect(errors).toEqual([new Error('ledger down')]);
    expect((await handle(delivery())).status).toBe(200);
    expect(calls).toBe(2);
  });

  test('a bad signature answers 401 (spec 6.3.5), runs nothing, and logs one warn line without a stack', async () => {
    let calls = 0;
    const { handle, errors, lines } = handlerWith({
      on: { 'transaction.payout_completed': () => void calls++ },
    });
    const response = await handle(delivery({}, 'whsec_someone_else'));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'no_matching_signature' });
    expect(calls).toBe(0);
    expect(errors).toEqual([]); // a client's doing, not the receiver's failure
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn inr-payouts webhook handler: answered 401 no_matching_signature: No v1/);
    expect(lines[0]).not.toContain('\n');
  });

  test('only POST is handled', async () => {
    const { handle } = handlerWith({});
    const response = await handle(new Request('https://partner.example/webhooks'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  test('a body over maxBodyBytes answers 413 unread', async () => {
    const { handle } = handlerWith({ maxBodyBytes: 64 });
    expect((await handle(delivery())).status).toBe(413);
  });

  test('a streamed body past maxBodyBytes with no content-length answers 413 once the cap is passed', async () => {
    const { handle, lines } = handlerWith({ maxBodyBytes: 64 });
    const response = await handle(streamed(['x'.repeat(40), 'x'.repeat(40)], 'stall'));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'body_too_large' });
    expect(lines).toEqual([expect.stringMatching(/answered 413 body_too_large: over maxBodyBytes/)]);
  });

  test('a body the client cut off answers 400 body_incomplete; the handler goes on serving', async () => {
    const { handle, errors, lines } = handlerWith({});
    const response = await handle(streamed(['{"id":"evt_'], 'error'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'body_incomplete' });
    expect(errors).toEqual([]);
    expect(lines).toEqual([
      expect.stringMatching(/answered 400 body_incomplete: the client closed the connection/),
    ]);
    expect((await handle(delivery())).status).toBe(200);
  });

  test('a body slower than bodyTimeoutMs answers 408 body_timeout', async () => {
    const { handle } = handlerWith({ bodyTimeoutMs: 50 });
    const response = await handle(streamed(['{"id":'], 'stall'));
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({ error: 'body_timeout' });
  });

  test('an event type with no function is acknowledged; an unknown type goes to onUnknown, once', async () => {
    const unknown: string[] = [];
    const { handle } = handlerWith({ onUnknown: async (event) => void unknown.push(event.event) });
    const ignored = await handle(delivery({ id: 'evt_user', event: 'user.created' }));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, ignored: true });
    for (let i = 0; i < 2; i++) {
      expect((await handle(delivery({ id: 'evt_new', event: 'account.renamed' }))).status).toBe(200);
    }
    expect(unknown).toEqual(['account.renamed']);
  });

  test('a store that fails answers 503, so the service retries, and runs nothing', async () => {
    let calls = 0;
    const store = { ...memoryWebhookStore(), claim: () => Promise.reject(new Error('connection refused')) };
    const { handle, errors } = handlerWith({
      store,
      on: { 'transaction.payout_completed': () => void calls++ },
    });
    const response = await handle(delivery());
    expect(response.status).toBe(503);
    expect(calls).toBe(0);
    expect(errors).toEqual([new Error('connection refused')]);
  });
});

describe('logging under a flood', () => {
  const forged = () =>
    new Request('https://partner.example/webhooks', {
      method: 'POST',
      body: '{}',
      headers: { 'x-service-signature': 't=1,v1=00' },
    });

  test('a thousand forged requests write at most logLimit lines, then one line counting the rest', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { handle, lines } = handlerWith({ logLimit: { lines: 3, perMs: 60_000 } });
      for (let i = 0; i < 1_000; i++) expect((await handle(forged())).status).toBe(401);
      expect(lines).toHaveLength(3);
      vi.advanceTimersByTime(60_000);
      expect(lines).toHaveLength(4);
      expect(lines[3]).toBe('warn inr-payouts webhook handler: 997 more warn lines left out (logLimit).');
      // The next interval writes again.
      await handle(forged());
      expect(lines).toHaveLength(5);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a flood of rejections never crowds out the receiver's own errors: each level has its own count", async () => {
    const failing = { 'transaction.payout_completed': () => Promise.reject(new Error('ledger down')) };
    const { handle, lines } = handlerWith({
      logLimit: { lines: 2, perMs: 3_600_000 },
      on: failing,
      onError: undefined,
    });
    for (let i = 0; i < 50; i++) await handle(forged());
    expect((await handle(delivery())).status).toBe(500);
    expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([
      'error inr-payouts webhook handler: evt_1 (transaction.payout_completed) failed: Error: ledger down',
    ]);
  });

  test("logLevel 'error' keeps the receiver's failures and drops rejections; 'off' writes nothing", async () => {
    const failing = { 'transaction.payout_completed': () => Promise.reject(new Error('ledger down')) };
    const quiet = handlerWith({ logLevel: 'error', on: failing, onError: undefined });
    await quiet.handle(forged());
    expect((await quiet.handle(delivery())).status).toBe(500);
    expect(quiet.lines).toEqual([
      'error inr-payouts webhook handler: evt_1 (transaction.payout_completed) failed: Error: ledger down',
    ]);
    const off = handlerWith({ logLevel: 'off', on: failing, onError: undefined });
    await off.handle(forged());
    await off.handle(delivery());
    expect(off.lines).toEqual([]);
  });

  test("a missing secret is the receiver's failure: onError hears of it, not the warn lines of rejected requests", async () => {
    const { handle, errors, lines } = handlerWith({ secret: '' });
    const response = await handle(delivery());
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'missing_secret' });
    expect(errors).toEqual([expect.objectContaining({ reason: 'missing_secret' })]);
    expect(lines).toEqual([]);
  });

  test('a logLimit of no lines is refused with what to use instead', () => {
    expect(() => handlerWith({ logLimit: { lines: 0, perMs: 1_000 } })).toThrow(/logLevel: "off"/);
  });
});

describe('two deliveries of one event at once', () => {
  test('the second answers 409 with Retry-After while the first runs, and the function runs once', async () => {
    let calls = 0;
    let finish = () => {};
    const running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const store = memoryWebhookStore();
    const replicaA = handlerWith({
      store,
      on: {
        'transaction.payout_completed': async () => {
          calls++;
          await running;
        },
      },
    }).handle;
    const replicaB = handlerWith({
      store,
      on: { 'transaction.payout_completed': () => void calls++ },
    }).handle;
    const first = replicaA(delivery());
    await sleep(20);
    const second = await replicaB(delivery());
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: 'in_progress' });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    finish();
    expect((await first).status).toBe(200);
    // The service's next retry of the second delivery: done, 200.
    expect((await replicaB(delivery())).status).toBe(200);
    expect(calls).toBe(1);
  });

  test('a function slower than the lease keeps its claim (renewed), and the other replica never runs it', async () => {
    let calls = 0;
    const store = memoryWebhookStore();
    const options = {
      store,
      leaseMs: 400, // long enough that a loaded machine's late timers still renew in time
      on: {
        'transaction.payout_completed': async (_event: unknown, { signal }: { signal: AbortSignal }) => {
          calls++;
          await sleep(1_600); // four leases
          expect(signal.aborted).toBe(false);
        },
      },
    };
    const slow = handlerWith(options).handle(delivery());
    for (let i = 0; i < 4; i++) {
      await sleep(320);
      expect((await handlerWith(options).handle(delivery())).status).toBe(409);
    }
    expect((await slow).status).toBe(200);
    expect(calls).toBe(1);
  });

  test('a replica that died mid-function stops renewing: its lease expires and a retry runs the event', async () => {
    const store = memoryWebhookStore();
    // What a crashed replica leaves: a claim nobody renews.
    await store.claim('evt_1', 'crashed-replica', 150);
    let calls = 0;
    const { handle } = handlerWith({ store, on: { 'transaction.payout_completed': () => void calls++ } });
    expect((await handle(delivery())).status).toBe(409);
    await sleep(250);
    expect((await handle(delivery())).status).toBe(200);
    expect(calls).toBe(1);
  });

  test('a claim that cannot be renewed is lost: the signal aborts, the next replica takes over, the loser answers 409', async () => {
    const store = memoryWebhookStore();
    // The store cannot be reached for renewals from this replica.
    const unreachable = { ...store, renew: () => Promise.reject(new Error('timeout')) };
    let aborted: unknown;
    let calls = 0;
    const { handle, errors } = handlerWith({
      store: unreachable,
      leaseMs: 150,
      on: {
        'transaction.payout_completed': async (_event, { signal }) => {
          calls++;
          await sleep(400);
          aborted = signal.reason;
        },
      },
    });
    const loser = handle(delivery());
    await sleep(250); // the lease has run out unrenewed
    const other = handlerWith({ store, on: { 'transaction.payout_completed': () => void calls++ } });
    expect((await other.handle(delivery())).status).toBe(200);
    const response = await loser;
    expect(String(aborted)).toMatch(/claim on webhook event evt_1 was lost/);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'claim_lost' });
    expect(String(errors[0])).toMatch(/Lost the claim on evt_1/);
    expect(calls).toBe(2); // what leaseMs bounds: a function must stop when its signal aborts
  });

  test('a renewal that never answers (a pool busy with other work) aborts the signal as a failed one does', async () => {
    const store = memoryWebhookStore();
    const hung = { ...store, renew: () => new Promise<boolean>(() => {}) };
    let calls = 0;
    let reason: unknown;
    const { handle } = handlerWith({
      store: hung,
      leaseMs: 150,
      on: {
        'transaction.payout_completed': async (_event, { signal }) => {
          calls++;
          // The partner's work, which stops when told to.
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
          reason = signal.reason;
          throw signal.reason;
        },
      },
    });
    const loser = await handle(delivery());
    expect(String(reason)).toMatch(/claim on webhook event evt_1 was lost: no renewal answered/);
    expect(loser.status).toBe(500); // the function threw: released, so the service's retry runs it
    const other = handlerWith({ store, on: { 'transaction.payout_completed': () => void calls++ } });
    expect((await other.handle(delivery())).status).toBe(200);
    expect(calls).toBe(2);
  });

  test("a slow claim leaves the function its whole lease, timed from the claim's answer", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const store = memoryWebhookStore();
      let claimSent: () => void = () => {};
      const sent = new Promise<void>((resolve) => {
        claimSent = resolve;
      });
      // A store frozen for 10 s (a paused Redis) answers the claim late; its renewals never answer at all.
      const frozen = {
        ...store,
        claim: async (id: string, token: string, leaseMs: number) => {
          claimSent();
          await new Promise((resolve) => setTimeout(resolve, 10_000));
          return store.claim(id, token, leaseMs);
        },
        renew: () => new Promise<boolean>(() => {}),
      };
      let signal: AbortSignal | undefined;
      const { handle } = handlerWith({
        store: frozen,
        leaseMs: 6_000,
        on: {
          'transaction.payout_completed': async (_event, context) => {
            signal = context.signal;
            await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
          },
        },
      });
      const answered = handle(delivery());
      await sent;
      await vi.advanceTimersByTimeAsync(10_000); // the claim answers
      expect(signal?.aborted).toBe(false);
      // Unrenewed, the signal aborts when a sixth of the lease is left: 5 s after the claim's answer.
      await vi.advanceTimersByTimeAsync(4_999);
      expect(signal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(signal?.aborted).toBe(true);
      // The function stopped on its signal; nobody took the event meanwhile, so the claim was still its own to mark.
      expect((await answered).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a claim slower than the whole lease sets no negative timer', async () => {
    const warnings: Error[] = [];
    const record = (warning: Error) => void warnings.push(warning);
    process.on('warning', record);
    try {
      const store = memoryWebhookStore();
      const slow = {
        ...store,
        claim: async (id: string, token: string, leaseMs: number) => {
          await sleep(300);
          return store.claim(id, token, leaseMs);
        },
      };
      let abortedAtStart: boolean | undefined;
      const { handle } = handlerWith({
        store: slow,
        leaseMs: 100,
        on: {
          'transaction.payout_completed': (_event, { signal }) => {
            abortedAtStart = signal.aborted;
          },
        },
      });
      expect((await handle(delivery())).status).toBe(200);
      await sleep(0); // a warning is emitted on the next tick
      expect(abortedAtStart).toBe(false);
      expect(warnings.map((warning) => warning.name)).not.toContain('TimeoutNegativeWarning');
    } finally {
      process.off('warning', record);
    }
  });
});

test('a store that fails prints its error once: the line names the event, the error carries its message', async () => {
  const printed: string[] = [];
  const handle = createWebhookHandler({
    secret,
    on: { 'transaction.payout_completed': () => {} },
    store: {
      ...memoryWebhookStore(),
      claim: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
    },
    // What console.error prints of (line, error): the line, then the error's message and stack.
    logger: { warn: () => {}, error: (line, ...details) => void printed.push(format(line, ...details)) },
  });
  expect((await handle(delivery())).status).toBe(503);
  expect(printed).toHaveLength(1);
  expect(printed[0]).toMatch(
    /^inr-payouts webhook handler: evt_1 \(transaction.payout_completed\) failed: Error: connect/,
  );
  expect(printed[0]?.match(/ECONNREFUSED/g)).toHaveLength(1);
});

describe('replicas on one shared store, under hostile clients', () => {
  // Four node:http replicas of one receiver (createWebhookHandler behind toNodeHandler, as a partner deploys it) on one
  // shared store, real PostgreSQL and real Redis (test/setup/services.ts), under clients that are hostile or broken:
  // requests dropped or cut short mid-body and a slow one on raw sockets, 2,000 forged signatures, and a renewal that
  // hangs (PostgreSQL: the replica's pool exhausted by the function's own connections; Redis: its connection blocked
  // by the function's own BLPOP). Every replica stays up, logs at most its logLimit, and every event is processed
  // exactly once, counted in the database by the function itself. Then the database stops: each replica answers 503
  // (the pools set up as docs/webhooks-in-production.md says) and stays up.

  const SECRET = 'whsec_hostile_replicas';
  const REPLICAS = 4;
  // The hostile load: events delivered, forged signatures sent, requests cut short mid-body.
  const load = { events: 100, forged: 2_000, cut: 40 } as const;
  const LEASE_MS = 3_000;
  const LOG_LINES = 5;
  const HANG = 'evt_hang';
  if (whyNoRedis) console.warn(`Redis rows skipped: ${whyNoRedis}`);

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const aborted = (signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });

  // What would end a replica's process: recorded, and asserted empty.
  const fatal: unknown[] = [];
  const record = (reason: unknown) => void fatal.push(reason);
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  afterAll(() => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  });

  /** One replica's link to the shared database, as the partner's code holds it. */
  interface Link<Within> {
    store: WebhookStore<Within>;
    /** The partner's work: one completion recorded in the same atomic step as the event's mark. */
    work(id: string, complete: (within: Within) => Promise<boolean>): Promise<void>;
    /** Starves this replica's connection(s) until `signal` aborts, as the partner's own load would. */
    hang(signal: AbortSignal, started: () => void): Promise<void>;
    close(): Promise<void>;
  }

  interface Backend<Within> {
    link(replica: number): Promise<Link<Within>>;
    /** How many times each event's work committed. */
    completions(ids: string[]): Promise<Map<string, number>>;
    /** Errors the pools and clients reported on their `error` listeners (as the guide sets them up). */
    readonly clientErrors: unknown[];
    server: RunningService;
  }

  async function postgresBackend(): Promise<Backend<PgWithin>> {
    const server = await startPostgres();
    const admin = new pg.Pool({ connectionString: server.url, max: 2 });
    const clientErrors: unknown[] = [];
    admin.on('error', (error) => clientErrors.push(error));
    await admin.query('CREATE TABLE completions (event_id text NOT NULL, replica integer NOT NULL)');
    const MAX = 4;
    return {
      server,
      clientErrors,
      async link(replica) {
        // As the guide says: without an error listener, an idle client's error (a restart) ends the process.
        const pool = new pg.Pool({ connectionString: server.url, max: MAX });
        pool.on('error', (error) => clientErrors.push(error));
        return {
          store: postgresWebhookStore(pool),
          work: (id, complete) =>
            pgWork(pool, ['INSERT INTO completions VALUES ($1, $2)', [id, replica]], complete),
          async hang(signal, started) {
            // Every connection of the pool held by the partner's own work: the renewal waits for one.
            const held = await Promise.all(Array.from({ length: MAX }, () => pool.connect()));
            started();
            await aborted(signal);
            for (const client of held) client.release();
          },
          close: () => pool.end(),
        };
      },
      async completions(ids) {
        const { rows } = await admin.query(
          'SELECT event_id, count(*)::int AS n FROM completions WHERE event_id = ANY($1) GROUP BY event_id',
          [ids],
        );
        return new Map(rows.map((row: { event_id: string; n: number }) => [row.event_id, row.n]));
      },
    };
  }

  async function redisBackend(): Promise<Backend<RedisCommands>> {
    const server = await startRedis();
    const clientErrors: unknown[] = [];
    const admin = new IoRedis(server.url, { lazyConnect: true });
    admin.on('error', (error) => clientErrors.push(error));
    await admin.connect();
    return {
      server,
      clientErrors,
      async link(replica) {
        // Two replicas on ioredis, two on node-redis, each set to fail fast (503) while Redis is down.
        if (replica < 2) {
          const client = new IoRedis(server.url, {
            lazyConnect: true,
            enableOfflineQueue: false,
            maxRetriesPerRequest: 1,
          });
          client.on('error', (error) => clientErrors.push(error));
          await client.connect();
          return {
            store: redisWebhookStore(client),
            work: redisWork,
            async hang(signal, started) {
              // The connection blocked by the partner's own command: the renewal queues behind it.
              const blocked = client.blpop(`unblock:${replica}`, 0);
              started();
              await aborted(signal);
              await admin.lpush(`unblock:${replica}`, '1');
              await blocked;
            },
            close: async () => void client.disconnect(),
          };
        }
        const client = createClient({ url: server.url, disableOfflineQueue: true });
        client.on('error', (error) => clientErrors.push(error));
        await client.connect();
        return {
          store: redisWebhookStore(client),
          work: redisWork,
          hang: () => Promise.reject(new Error('replica 0 hangs')),
          close: async () => void client.destroy(),
        };
      },
      async completions(ids) {
        const counts = await admin.mget(ids.map((id) => `completions:${id}`));
        return new Map(ids.flatMap((id, i) => (counts[i] === null ? [] : [[id, Number(counts[i])]])));
      },
    };
  }

  interface Replica {
    url: string;
    port: number;
    lines: string[];
    server: Server;
    close: () => Promise<void>;
  }

  /** What the function saw of the event whose renewal hangs: its runs in order, and why replica 0 stopped. */
  interface HangRecord {
    order: string[];
    reason?: unknown;
    started: Promise<void>;
  }

  async function startReplicas<Within>(backend: Backend<Within>, hang: HangRecord & { start: () => void }) {
    const replicas: Replica[] = [];
    for (let i = 0; i < REPLICAS; i++) {
      const link = await backend.link(i);
      const lines: string[] = [];
      let hungOnce = false;
      const handle = createWebhookHandler<Within>({
        secret: SECRET,
        store: link.store,
        leaseMs: LEASE_MS,
        bodyTimeoutMs: 2_000,
        logger: { warn: (line) => lines.push(line), error: (line) => lines.push(line) },
        logLimit: { lines: LOG_LINES, perMs: 3_600_000 },
        on: {
          'user.created': async (event, { complete, signal }) => {
            if (event.id !== HANG) return link.work(event.id, complete);
            hang.order.push(`${i}:start`);
            try {
              if (i === 0 && !hungOnce) {
                hungOnce = true;
                await link.hang(signal, hang.start);
                hang.reason = signal.reason;
                throw signal.reason; // the partner stops when told to
              }
              await link.work(event.id, complete);
            } finally {
              hang.order.push(`${i}:stop`);
            }
          },
        },
      });
      const server = createServer(toNodeHandler(handle));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      replicas.push({ url: `http://127.0.0.1:${port}/webhooks`, port, lines, server, close: link.close });
    }
    return replicas;
  }

  const signed = (id: string) => signedUserCreated(id, SECRET);

  async function post(url: string, body: string, signature: string): Promise<number> {
    const response = await postSigned(url, { body, signature });
    await response.arrayBuffer();
    return response.status;
  }

  /** One delivery as the service retries it, from replica `first` on to the next: the status that ended it. */
  async function deliver(replicas: Replica[], first: number, id: string): Promise<number> {
    let status = 0;
    for (let n = 0; n < 200; n++) {
      const { body, signature } = signed(id);
      status = await post(replicas[(first + n) % REPLICAS]?.url ?? '', body, signature);
      if (status >= 200 && status < 300) return status;
      await sleep(20);
    }
    return status;
  }

  /** A request on a raw socket whose body stops halfway: then destroyed, ended, or left to time out. */
  function cutShort(port: number, then: 'destroy' | 'end' | 'stall'): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString();
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve(answer));
      const { body, signature } = signed('evt_cut');
      socket.write(
        `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nX-Service-Signature: ${signature}\r\n\r\n${body.slice(0, body.length / 2)}`,
        () => {
          if (then === 'destroy') socket.destroy();
          else if (then === 'end') socket.end();
        },
      );
    });
  }

  /** `count` forged deliveries, spread over the replicas, `width` at a time: their statuses. */
  async function forge(replicas: Replica[], count: number, width = 32): Promise<number[]> {
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const { body } = signed(`evt_forged_${i}`);
        const t = Math.floor(Date.now() / 1000);
        statuses.push(await post(replicas[i % REPLICAS]?.url ?? '', body, `t=${t},v1=${'ab'.repeat(32)}`));
      }
    };
    await Promise.all(Array.from({ length: width }, worker));
    return statuses;
  }

  function suite<Within>(name: string, skip: string | undefined, make: () => Promise<Backend<Within>>) {
    describe.skipIf(skip !== undefined)(name, () => {
      let backend: Backend<Within>;
      let replicas: Replica[] = [];
      let stopped = false;
      beforeAll(async () => {
        backend = await make();
      }, 60_000);
      // biome-ignore lint/suspicious/noDuplicateTestHooks: this hook is the suite's describe's own; the other is its enclosing one's.
      afterAll(async () => {
        for (const replica of replicas) {
          replica.server.closeAllConnections();
          await new Promise((resolve) => replica.server.close(resolve));
          await replica.close();
        }
        if (!stopped) await backend?.server.stop();
      });

      test('dropped bodies, 2,000 forged signatures and a hung renewal: every replica stays up, each event runs once', async () => {
        let start = () => {};
        const hang: HangRecord & { start: () => void } = {
          order: [],
          started: new Promise<void>((resolve) => {
            start = resolve;
          }),
          start: () => start(),
        };
        replicas = await startReplicas(backend, hang);
        const ids = Array.from({ length: load.events }, (_, i) => `evt_${name.slice(0, 2)}_${i}`);

        // The event whose renewal hangs, on replica 0; the rest of the traffic meanwhile.
        const { body, signature } = signed(HANG);
        const hung = post(replicas[0]?.url ?? '', body, signature);
        await hang.started;
        const [first, retried, forged, cut, genuine] = await Promise.all([
          hung,
          // The service's retries of it, on the other replicas: none may run it while replica 0 still does.
          deliver(replicas, 1, HANG),
          forge(replicas, load.forged),
          Promise.all(
            Array.from({ length: load.cut }, (_, i) =>
              cutShort(replicas[i % REPLICAS]?.port ?? 0, i % 2 ? 'end' : 'destroy'),
            ),
          ),
          Promise.all(
            ids.flatMap((id, i) => [
              deliver(replicas, i % REPLICAS, id),
              deliver(replicas, (i + 1) % REPLICAS, id),
            ]),
          ),
        ]);
        const slow = await Promise.all(replicas.map((replica) => cutShort(replica.port, 'stall')));

        expect(fatal).toEqual([]);
        expect(forged).toHaveLength(load.forged);
        expect(new Set(forged)).toEqual(new Set([401]));
        // A cut body is answered 400 if the client still listens, and never reaches the event's function.
        expect(cut.filter((answer) => answer !== '' && !answer.startsWith('HTTP/1.1 400 '))).toEqual([]);
        for (const answer of slow) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        expect(new Set(genuine)).toEqual(new Set([200]));

        // The hung renewal aborted the signal; the event ran again (on any replica) only after that first run stopped.
        expect(first).toBe(500);
        expect(String(hang.reason)).toMatch(
          /claim on webhook event evt_hang was lost: no renewal answered in time/,
        );
        expect(retried).toBe(200);
        expect(hang.order).toEqual([
          '0:start',
          '0:stop',
          expect.stringMatching(/^[0-3]:start$/),
          expect.stringMatching(/^[0-3]:stop$/),
        ]);

        const counts = await backend.completions([...ids, HANG]);
        const wrong = [...ids, HANG].filter((id) => counts.get(id) !== 1);
        expect(wrong).toEqual([]);

        // Each replica met hundreds of forged and cut requests and logged LOG_LINES of them, one line each, no stack.
        for (const replica of replicas) {
          const warns = replica.lines.filter((line) => /answered (400|401|408) /.test(line));
          expect(warns).toHaveLength(LOG_LINES);
          for (const line of warns) expect(line).not.toMatch(/\n|\bat .*:\d+:\d+/);
          expect(replica.lines.length).toBeLessThanOrEqual(2 * LOG_LINES);
        }
        // Every replica still serves.
        for (const [i, replica] of replicas.entries())
          expect(await deliver([replica], 0, `evt_after_${i}`)).toBe(200);
      }, 120_000);

      test('the database stops: every replica answers 503 at once and stays up', async () => {
        expect(replicas).toHaveLength(REPLICAS);
        await backend.server.stop();
        stopped = true;
        const statuses = await Promise.all(
          replicas.map((replica) => {
            const { body, signature } = signed('evt_during_outage');
            return post(replica.url, body, signature);
          }),
        );
        expect(statuses).toEqual([503, 503, 503, 503]);
        // The pools' idle connections report their loss on the error listeners the guide adds.
        await vi.waitFor(() => expect(backend.clientErrors.length).toBeGreaterThan(0));
        expect(fatal).toEqual([]);
        for (const replica of replicas) {
          const { body, signature } = signed('evt_still_down');
          expect(await post(replica.url, body, signature)).toBe(503);
        }
      }, 60_000);
    });
  }

  suite('PostgreSQL (pg pools)', undefined, postgresBackend);
  suite('Redis (ioredis and node-redis)', whyNoRedis, redisBackend);
});
