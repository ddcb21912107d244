// Exactly once across replicas, on each shared store: 4 receiver processes (webhook-replica.ts) share PostgreSQL or
// Redis; 1,000 events are each delivered twice at once to two different replicas, every delivery retried on the
// service's schedule (spec 6.4: 5 attempts, 1, 2, 4, 8 s apart, 30 s time-out); 50 of them are cut by kill -9
// mid-function (the replica is replaced); the events whose attempts all failed are then delivered again, as
// `client.webhooks.recover` has the service do. Every event's function must have completed exactly once, counted
// in the same database by the function itself.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningService, redisMissing, startPostgres, startRedis } from '../setup/services.js';
import { postSigned, signedUserCreated } from '../support/webhook-delivery.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'whsec_replicas';
const EVENTS = 1_000;
const KILLS = 50;
const REPLICAS = 4;
const DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000];
const whyNoRedis = await redisMissing();
if (whyNoRedis) console.warn(`Redis replica row skipped: ${whyNoRedis}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const eventIds = Array.from({ length: EVENTS }, (_, i) => `evt_replica_${i}`);
// Spread over the run: every 20th event hangs on its first run.
const armedIds = eventIds.filter((_, i) => i % (EVENTS / KILLS) === 7);

interface Slot {
  child: ChildProcess;
  port: number;
}

/** The four replicas; a killed one is replaced in its slot by a new process. */
class Replicas {
  readonly slots: (Slot | undefined)[] = [];
  /** Processes killed; one kill may cut several deliveries (every one in flight on that process). */
  kills = 0;
  /** Replacements that did not start. */
  readonly failures: string[] = [];
  /** Every process started, so that stop() also ends one still starting. */
  readonly #children = new Set<ChildProcess>();
  #stopping = false;

  constructor(private readonly env: Record<string, string>[]) {}

  async start(): Promise<void> {
    await Promise.all(this.env.map((_, i) => this.#spawn(i)));
  }

  async #spawn(index: number): Promise<void> {
    // One process per replica (tsx as a loader, not tsx's own launcher, whose child would outlive a kill -9).
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/slow/webhook-replica.ts'], {
      cwd: root,
      env: { ...process.env, ...this.env[index], SECRET },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.#children.add(child);
    await new Promise<void>((resolve, reject) => {
      let buffered = '';
      child.once('exit', (code, signal) => {
        this.#children.delete(child);
        if (this.slots[index]?.child === child) this.slots[index] = undefined;
        if (signal !== 'SIGKILL' && !this.#stopping) reject(new Error(`replica ${index} exited ${code}`));
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let newline = buffered.indexOf('\n');
        while (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf('\n');
          if (line.startsWith('port ')) {
            this.slots[index] = { child, port: Number(line.slice(5)) };
            resolve();
          } else if (line.startsWith('hang ') && !child.killed) {
            // Mid-function: cut it as a crash would, and put a new replica in its place (once per process: a
            // second event hanging on it is cut by the same kill).
            this.kills++;
            this.slots[index] = undefined;
            child.kill('SIGKILL');
            if (!this.#stopping)
              this.#spawn(index).catch((error: unknown) => this.failures.push(String(error)));
          }
        }
      });
    });
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    const exits = [...this.#children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of this.#children) child.kill('SIGKILL');
    await Promise.all(exits);
  }
}

/** One delivery attempt to a replica: its status, or 0 when nothing answered (refused, cut, time-out). */
async function attempt(replicas: Replicas, slot: number, id: string): Promise<number> {
  const target = replicas.slots[slot];
  if (target === undefined) return 0;
  try {
    const response = await postSigned(
      `http://127.0.0.1:${target.port}/webhooks`,
      signedUserCreated(id, SECRET),
      {
        signal: AbortSignal.timeout(30_000),
      },
    );
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** One delivery of an event as the service makes it: up to 5 attempts; true once one is answered 2xx. */
async function deliver(replicas: Replicas, firstSlot: number, id: string): Promise<boolean> {
  for (let n = 0; n < DELAYS_MS.length; n++) {
    await sleep(DELAYS_MS[n] ?? 0);
    // A retry reaches whichever replica the load balancer picks.
    const slot = n === 0 ? firstSlot : Math.floor(Math.random() * REPLICAS);
    const status = await attempt(replicas, slot, id);
    if (status >= 200 && status < 300) return true;
  }
  return false;
}

/** Every event delivered twice at once, to replicas i and i+1; the IDs whose two deliveries both failed. */
async function deliverAll(replicas: Replicas, ids: string[]): Promise<string[]> {
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      const id = ids[i] ?? '';
      const results = await Promise.all([
        deliver(replicas, i % REPLICAS, id),
        deliver(replicas, (i + 1) % REPLICAS, id),
      ]);
      if (!results.includes(true)) failed.push(id);
    }
  };
  await Promise.all(Array.from({ length: 40 }, worker));
  return failed;
}

async function run(
  replicas: Replicas,
  backend: {
    completions: () => Promise<Map<string, number>>;
    twice: (ids: string[]) => Promise<unknown>;
    /** How many of the armed events no delivery has reached (a reached one hangs until its process is killed). */
    stillArmed: () => Promise<number>;
  },
) {
  await replicas.start();
  const failed = await deliverAll(replicas, eventIds);
  // What `recover` sets off: the service delivers each failed event again; an operator runs it until none is left.
  let stillFailed = failed;
  for (let run = 0; run < 3 && stillFailed.length > 0; run++)
    stillFailed = await deliverAll(replicas, stillFailed);
  const counts = await backend.completions();
  const wrong = eventIds.filter((id) => counts.get(id) !== 1).map((id) => `${id}: ${counts.get(id) ?? 0}`);
  console.log(
    `${replicas.kills} replicas killed mid-function; ${failed.length} events recovered; ` +
      `${counts.size} events completed, ${wrong.length} not exactly once`,
  );
  if (wrong.length > 0)
    console.log('not exactly once:', wrong.slice(0, 10), await backend.twice(wrong.slice(0, 5)));
  // Each of the 50 armed events was cut mid-function: its delivery took the arm, then hung until kill -9. Two may
  // hang on one process before its first line is read, and one kill cuts both, so processes killed <= 50.
  expect(replicas.failures).toEqual([]);
  expect(await backend.stillArmed()).toBe(0);
  expect(replicas.kills).toBeGreaterThan(0);
  expect(replicas.kills).toBeLessThanOrEqual(KILLS);
  expect(stillFailed).toEqual([]);
  expect(wrong).toEqual([]);
  expect(counts.size).toBe(EVENTS);
}

describe('PostgreSQL: 4 replicas (2 on pg, 2 on postgres)', () => {
  let server: RunningService;
  let pool: pg.Pool;
  let replicas: Replicas;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url });
    await pool.query(
      'CREATE TABLE completions (event_id text NOT NULL, pid integer, at timestamptz DEFAULT clock_timestamp())',
    );
    await pool.query('CREATE TABLE armed (event_id text PRIMARY KEY)');
    await pool.query('INSERT INTO armed SELECT unnest($1::text[])', [armedIds]);
    const env = (driver: string) => ({ STORE: 'postgres', DRIVER: driver, DATABASE: server.url });
    replicas = new Replicas([env('pg'), env('postgres'), env('pg'), env('postgres')]);
  });
  afterAll(async () => {
    await replicas?.stop();
    await pool?.end();
    await server?.stop();
  });

  test('every event completes exactly once, none lost after recovery', { timeout: 20 * 60_000 }, async () => {
    await run(replicas, {
      async completions() {
        const { rows } = await pool.query<{ event_id: string; n: number }>(
          'SELECT event_id, count(*)::int AS n FROM completions GROUP BY event_id',
        );
        return new Map(rows.map((row) => [row.event_id, row.n]));
      },
      twice: async (ids) =>
        (await pool.query('SELECT * FROM completions WHERE event_id = ANY($1) ORDER BY at', [ids])).rows,
      stillArmed: async () => (await pool.query('SELECT 1 FROM armed')).rows.length,
    });
  });
});

describe.skipIf(whyNoRedis !== undefined)('Redis: 4 replicas (2 on redis, 2 on ioredis)', () => {
  let server: RunningService;
  let redis: IoRedis;
  let replicas: Replicas;
  beforeAll(async () => {
    server = await startRedis();
    redis = new IoRedis(server.url);
    await redis.mset(...armedIds.flatMap((id) => [`armed:${id}`, '1']));
    const env = (driver: string) => ({ STORE: 'redis', DRIVER: driver, DATABASE: server.url });
    replicas = new Replicas([env('redis'), env('ioredis'), env('redis'), env('ioredis')]);
  });
  afterAll(async () => {
    await replicas?.stop();
    redis?.disconnect();
    await server?.stop();
  });

  test('every event completes exactly once, none lost after recovery', {
    timeout: 20 * 60_000,
  }, async () => {
    await run(replicas, {
      async completions() {
        const counts = new Map<string, number>();
        const values = await redis.mget(...eventIds.map((id) => `completions:${id}`));
        eventIds.forEach((id, i) => {
          if (values[i] !== null) counts.set(id, Number(values[i]));
        });
        return counts;
      },
      twice: async () => 'Redis keeps counts only',
      stillArmed: async () => (await redis.keys('armed:*')).length,
    });
  });
});
