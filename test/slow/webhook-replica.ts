// One receiver replica for webhook-replicas.test.ts: createWebhookHandler on node:http over a shared store, whose
// function records each completion in the same database (a row per completion in PostgreSQL, a counter in Redis),
// in the same transaction or script as the event's mark (`context.complete`).
// An event marked "armed" hangs on its first run, after saying so on stdout, so the test can kill -9 the process
// mid-function.
//
//   STORE=postgres|redis DRIVER=pg|postgres|redis|ioredis DATABASE=<url> SECRET=<whsec> tsx webhook-replica.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import postgres from 'postgres';
import { createClient } from 'redis';
import {
  createWebhookHandler,
  postgresWebhookStore,
  type RedisCommands,
  redisWebhookStore,
  toNodeHandler,
  type WebhookStore,
} from '../../src/webhooks/handler/index.js';
import { lost, type PgWithin, pgWork, redisWork } from '../support/replica-work.js';

const { STORE, DRIVER, DATABASE = '', SECRET = '' } = process.env;

/** What each replica works with: the shared store, and the function's work done in the same database. */
interface Backend<Within> {
  store: WebhookStore<Within>;
  /** Takes the event's arm away; true when it was armed. */
  disarm(id: string): Promise<boolean>;
  /**
   * The partner's work: one more completion of the event, recorded in the same atomic step as the event's mark
   * (a transaction, a script), so a kill -9 between the two cannot happen.
   */
  work(id: string, complete: (within: Within) => Promise<boolean>): Promise<void>;
}

async function postgresBackend(): Promise<Backend<PgWithin>> {
  const disarmSql = 'DELETE FROM armed WHERE event_id = $1 RETURNING 1';
  const insert = 'INSERT INTO completions (event_id, pid) VALUES ($1, $2)';
  if (DRIVER === 'pg') {
    const pool = new pg.Pool({ connectionString: DATABASE, max: 8 });
    return {
      store: postgresWebhookStore(pool),
      disarm: async (id) => (await pool.query(disarmSql, [id])).rows.length > 0,
      work: (id, complete) => pgWork(pool, [insert, [id, process.pid]], complete),
    };
  }
  const sql = postgres(DATABASE, { max: 8, onnotice: () => {} });
  return {
    store: postgresWebhookStore(sql),
    disarm: async (id) => (await sql.unsafe(disarmSql, [id])).length > 0,
    async work(id, complete) {
      await sql.begin(async (tx) => {
        await tx.unsafe(insert, [id, process.pid]);
        if (!(await complete(tx))) throw lost();
      });
    },
  };
}

async function redisBackend(): Promise<Backend<RedisCommands>> {
  if (DRIVER === 'redis') {
    const client = createClient({ url: DATABASE });
    await client.connect();
    return {
      store: redisWebhookStore(client),
      disarm: async (id) => (await client.del(`armed:${id}`)) === 1,
      work: redisWork,
    };
  }
  const client = new IoRedis(DATABASE);
  return {
    store: redisWebhookStore(client),
    disarm: async (id) => (await client.del(`armed:${id}`)) === 1,
    work: redisWork,
  };
}

function handlerOf<Within>({ store, disarm, work }: Backend<Within>) {
  return createWebhookHandler<Within>({
    secret: SECRET,
    store,
    // Short enough that a killed replica's events come back within the service's retries (15 s), long enough
    // that a replica slowed by a loaded machine still renews in time.
    leaseMs: 5_000,
    onError: () => {},
    on: {
      'user.created': async (event, { complete }) => {
        if (await disarm(event.id)) {
          process.stdout.write(`hang ${event.id}\n`);
          await new Promise(() => {}); // killed here
        }
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
        await work(event.id, complete);
      },
    },
  });
}

const handle = STORE === 'postgres' ? handlerOf(await postgresBackend()) : handlerOf(await redisBackend());
// The test closes the pipe when it ends; a last line written after that is no error of the replica's.
process.stdout.on('error', () => {});
const server = createServer(toNodeHandler(handle));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port ${(server.address() as AddressInfo).port}\n`);
});
