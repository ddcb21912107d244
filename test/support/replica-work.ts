// The partner's work in the webhook replica tests (handler.test.ts's hostile clients, test/slow/webhook-replica.ts):
// one completion recorded in the same atomic step as the event's mark (`context.complete`), so a replica killed or
// starved between the two cannot leave the work done and the event unmarked.
import type pg from 'pg';
import type { PgQueryable, PostgresJsSql, RedisCommands } from '../../src/webhooks/handler/index.js';

/** What the PostgreSQL store's function runs within: a `pg` client or a postgres.js transaction. */
export type PgWithin = PgQueryable | PostgresJsSql;

/** The error that rolls the completion back when the mark failed (the claim was lost). */
export const lost = () => new Error('the claim was lost: rolled back');

/** On a `pg` pool: the completion (`insert` with `values`) and the event's mark in one transaction. */
export async function pgWork(
  pool: pg.Pool,
  [insert, values]: [string, unknown[]],
  complete: (within: PgWithin) => Promise<boolean>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(insert, values);
    if (!(await complete(client))) throw lost();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** On Redis: the event's completion counter raised in the marking script itself. */
export async function redisWork(
  id: string,
  complete: (within: RedisCommands) => Promise<boolean>,
): Promise<void> {
  if (!(await complete([['INCR', `completions:${id}`]]))) throw lost();
}
