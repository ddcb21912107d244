// One receiver replica for webhook-replicas.test.ts: createWebhookHandler on node:http over a shared store, whose
// function records each completion in the same database (a row per completion in PostgreSQL, a counter in Redis).
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
  redisWebhookStore,
  toNodeHandler,
  type WebhookStore,
} from '../../src/webhooks/handler/index.js';

const { STORE, DRIVER, DATABASE = '', SECRET = '' } = process.env;

interface Backend {
  store: WebhookStore;
  /** Takes the event's arm away; true when it was armed. */
  disarm(id: string): Promise<boolean>;
  /** The partner's work, done: one more completion of this event. */
  complete(id: string): Promise<void>;
}

async function backend(): Promise<Backend> {
  if (STORE === 'postgres') {
    let query: (text: string, values: unknown[]) => Promise<readonly unknown[]>;
    let store: WebhookStore;
    if (DRIVER === 'pg') {
      const pool = new pg.Pool({ connectionString: DATABASE, max: 8 });
      query = async (text, values) => (await pool.query(text, values)).rows;
      store = postgresWebhookStore(pool);
    } else {
      const sql = postgres(DATABASE, { max: 8, onnotice: () => {} });
      query = (text, values) => sql.unsafe(text, values as never[]);
      store = postgresWebhookStore(sql);
    }
    return {
      store,
      disarm: async (id) =>
        (await query('DELETE FROM armed WHERE event_id = $1 RETURNING 1', [id])).length > 0,
      complete: async (id) => {
        await query('INSERT INTO completions (event_id, pid) VALUES ($1, $2)', [id, process.pid]);
      },
    };
  }
  if (DRIVER === 'redis') {
    const client = createClient({ url: DATABASE });
    await client.connect();
    return {
      store: redisWebhookStore(client),
      disarm: async (id) => (await client.del(`armed:${id}`)) === 1,
      complete: async (id) => {
        await client.incr(`completions:${id}`);
      },
    };
  }
  const client = new IoRedis(DATABASE);
  return {
    store: redisWebhookStore(client),
    disarm: async (id) => (await client.del(`armed:${id}`)) === 1,
    complete: async (id) => {
      await client.incr(`completions:${id}`);
    },
  };
}

const { store, disarm, complete } = await backend();
const handle = createWebhookHandler({
  secret: SECRET,
  store,
  // Short enough that a killed replica's events come back within the service's retries (15 s), long enough that
  // a replica slowed by a loaded machine still renews in time.
  leaseMs: 5_000,
  onError: () => {},
  on: {
    'user.created': async (event) => {
      if (await disarm(event.id)) {
        process.stdout.write(`hang ${event.id}\n`);
        await new Promise(() => {}); // killed here
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      await complete(event.id);
    },
  },
});
// The test closes the pipe when it ends; a last line written after that is no error of the replica's.
process.stdout.on('error', () => {});
const server = createServer(toNodeHandler(handle));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port ${(server.address() as AddressInfo).port}\n`);
});
