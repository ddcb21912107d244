import type { ClaimResult, WebhookStore } from './store.js';

/** node-postgres (`pg`): a `Pool`, a `Client` or a `PoolClient`. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** postgres.js (`postgres`): the `sql` function, whose `unsafe` runs a parameterised statement. */
export interface PostgresJsSql {
  unsafe(text: string, values?: never[]): PromiseLike<readonly unknown[]>;
}

/**
 * Options of {@link postgresWebhookStore}.
 *
 * @example
 * ```ts
 * import type { PostgresWebhookStoreOptions } from 'inr-payouts/webhooks/handler';
 *
 * const options: PostgresWebhookStoreOptions = { table: 'billing.webhook_events' };
 * ```
 */
export interface PostgresWebhookStoreOptions {
  /** The table, optionally schema-qualified; created on first use if missing. Default `inr_payouts_webhook_events`. */
  table?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
// Two replicas creating the table at once: 42P07 duplicate table, 42710 its row type already made by the other,
// 23505 the same seen as a unique violation on pg_type (which of the three depends on the server's version and timing).
const CREATE_RACE = new Set(['42P07', '42710', '23505']);

/**
 * A {@link WebhookStore} in PostgreSQL, on the partner's own client: a `pg` `Pool` (or `Client`) or a `postgres`
 * `sql`. One table (`event_id` primary key, `state`, `token`, `lease_until`, `completed_at`), created with
 * `CREATE TABLE IF NOT EXISTS` on first use. A claim is one `INSERT ... ON CONFLICT DO UPDATE ... WHERE` the
 * existing row's lease has run out, so exactly one replica gets it; every lease is timed by the database's
 * `now()`. Done rows stay: delete old ones (`completed_at`) on a schedule if the table grows too large.
 *
 * For exactly once across a crash, mark the event inside the transaction of the function's own writes: pass its
 * client to `context.complete` (a `pg` client after `BEGIN`, or the `sql` of postgres's `sql.begin`), and roll back
 * when it answers false.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { createWebhookHandler, postgresWebhookStore } from 'inr-payouts/webhooks/handler';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL }); // or postgres(url) of `postgres`
 * pool.on('error', (error) => console.error(error.message)); // else a database restart ends the process
 * const handle = createWebhookHandler({
 *   secret: 'whsec_example',
 *   store: postgresWebhookStore(pool),
 *   on: { 'transaction.payout_completed': async (event) => console.log(event.data.utr) },
 * });
 * await pool.end();
 * ```
 */
export function postgresWebhookStore(
  client: PgQueryable | PostgresJsSql,
  options: PostgresWebhookStoreOptions = {},
): WebhookStore<PgQueryable | PostgresJsSql> {
  const table = options.table ?? 'inr_payouts_webhook_events';
  if (!IDENTIFIER.test(table)) {
    throw new TypeError(
      `postgresWebhookStore: table must be a lower-case name or schema.name; got ${table}.`,
    );
  }
  const run = async (
    text: string,
    values: unknown[],
    on: PgQueryable | PostgresJsSql = client,
  ): Promise<Record<string, unknown>[]> => {
    const rows =
      'query' in on ? (await on.query(text, values)).rows : await on.unsafe(text, values as never[]);
    return rows as Record<string, unknown>[];
  };
  let created: Promise<void> | undefined;
  const ready = () => {
    created ??= run(
      `CREATE TABLE IF NOT EXISTS ${table} (event_id text PRIMARY KEY, state text NOT NULL, token text, ` +
        'lease_until timestamptz, completed_at timestamptz)',
      [],
    ).then(
      () => undefined,
      (error: unknown) => {
        created = undefined; // tried again on the next call
        if (!CREATE_RACE.has(String((error as { code?: unknown }).code))) throw error;
      },
    );
    return created;
  };
  const lease = `now() + $3::integer * interval '1 millisecond'`;
  const held = `event_id = $1 AND token = $2 AND state = 'processing'`;
  return {
    async claim(eventId, token, leaseMs): Promise<ClaimResult> {
      await ready();
      const claimed = await run(
        `INSERT INTO ${table} AS t (event_id, state, token, lease_until) VALUES ($1, 'processing', $2, ${lease}) ` +
          `ON CONFLICT (event_id) DO UPDATE SET token = $2, lease_until = ${lease} ` +
          `WHERE t.state = 'processing' AND t.lease_until <= now() RETURNING 1 AS claimed`,
        [eventId, token, Math.ceil(leaseMs)],
      );
      if (claimed.length > 0) return { state: 'claimed' };
      const [row] = await run(
        `SELECT state, greatest(0, ceil(extract(epoch FROM lease_until - now()) * 1000))::integer AS left_ms ` +
          `FROM ${table} WHERE event_id = $1`,
        [eventId],
      );
      if (row?.state === 'done') return { state: 'done' };
      // A row released between the two statements is free now: the service's retry will claim it.
      return { state: 'busy', retryAfterMs: Number(row?.left_ms ?? 0) };
    },
    async renew(eventId, token, leaseMs) {
      const renewed = `UPDATE ${table} SET lease_until = ${lease} WHERE ${held} RETURNING 1 AS held`;
      return (await run(renewed, [eventId, token, Math.ceil(leaseMs)])).length > 0;
    },
    async complete(eventId, token, within) {
      const rows = await run(
        `UPDATE ${table} SET state = 'done', token = NULL, lease_until = NULL, completed_at = now() ` +
          `WHERE ${held} RETURNING 1 AS done`,
        [eventId, token],
        within,
      );
      return rows.length > 0;
    },
    async release(eventId, token) {
      await run(`DELETE FROM ${table} WHERE ${held}`, [eventId, token]);
    },
  };
}
