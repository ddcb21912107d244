// Four node:http replicas of one receiver (createWebhookHandler behind toNodeHandler, as a partner deploys it) on one
// shared store, real PostgreSQL and real Redis (test/setup/services.ts), under clients that are hostile or broken:
// requests dropped or cut short mid-body and a slow one on raw sockets, 2,000 forged signatures, and a renewal that
// hangs (PostgreSQL: the replica's pool exhausted by the function's own connections; Redis: its connection blocked
// by the function's own BLPOP). Every replica stays up, logs at most its logLimit, and every event is processed
// exactly once, counted in the database by the function itself. Then the database stops: each replica answers 503
// (the pools set up as docs/webhooks-in-production.md says) and stays up.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { signWebhook } from 'inr-payouts/webhooks';
import {
  createWebhookHandler,
  type PgQueryable,
  type PostgresJsSql,
  postgresWebhookStore,
  type RedisCommands,
  redisWebhookStore,
  toNodeHandler,
  type WebhookStore,
} from 'inr-payouts/webhooks/handler';
import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type RunningService, redisMissing, startPostgres, startRedis } from '../../setup/services.js';

const SECRET = 'whsec_hostile_replicas';
const REPLICAS = 4;
const EVENTS = 100;
const FORGED = 2_000;
const CUT = 40;
const LEASE_MS = 3_000;
const LOG_LINES = 5;
const HANG = 'evt_hang';
const whyNoRedis = await redisMissing();
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

const lost = () => new Error('the claim was lost: rolled back');

async function postgresBackend(): Promise<Backend<PgQueryable | PostgresJsSql>> {
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
        async work(id, complete) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await client.query('INSERT INTO completions VALUES ($1, $2)', [id, replica]);
            if (!(await complete(client))) throw lost();
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          } finally {
            client.release();
          }
        },
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
  const work = async (id: string, complete: (within: RedisCommands) => Promise<boolean>) => {
    if (!(await complete([['INCR', `completions:${id}`]]))) throw lost();
  };
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
          work,
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
        work,
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

function signed(id: string) {
  return signWebhook({
    payload: {
      id,
      event: 'user.created',
      timestamp: new Date().toISOString(),
      partnerId: 'p_1',
      data: { userId: id },
    },
    secret: SECRET,
  });
}

async function post(url: string, body: string, signature: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-service-signature': signature },
  });
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
      const ids = Array.from({ length: EVENTS }, (_, i) => `evt_${name.slice(0, 2)}_${i}`);

      // The event whose renewal hangs, on replica 0; the rest of the traffic meanwhile.
      const { body, signature } = signed(HANG);
      const hung = post(replicas[0]?.url ?? '', body, signature);
      await hang.started;
      const [first, retried, forged, cut, genuine] = await Promise.all([
        hung,
        // The service's retries of it, on the other replicas: none may run it while replica 0 still does.
        deliver(replicas, 1, HANG),
        forge(replicas, FORGED),
        Promise.all(
          Array.from({ length: CUT }, (_, i) =>
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
      expect(forged).toHaveLength(FORGED);
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
