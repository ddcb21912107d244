import type { ClaimResult, WebhookStore } from './store.js';

/** node-redis (`redis` v4, v5): a connected client's `sendCommand`. */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** ioredis: a connected client's `call`. */
export interface IoRedisLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * Redis commands (`[['INCR', 'payouts:paid'], ['HSET', 'order:42', 'utr', 'UTR1']]`) that `context.complete` runs in
 * the same Lua script as the mark, only if the claim is still this delivery's: the function's effect and the mark
 * happen together or not at all. On a cluster, their keys must hash to the event key's slot.
 */
export type RedisCommands = readonly (readonly string[])[];

/**
 * Options of {@link redisWebhookStore}.
 *
 * @example
 * ```ts
 * import type { RedisWebhookStoreOptions } from 'inr-payouts/webhooks/handler';
 *
 * const options: RedisWebhookStoreOptions = { prefix: 'billing:webhook:', doneTtlMs: 90 * 86_400_000 };
 * ```
 */
export interface RedisWebhookStoreOptions {
  /** Prepended to each event ID. Default `inr-payouts:webhook:`. */
  prefix?: string;
  /** How long a done event is remembered, in ms; a redelivery after that runs again. Default 30 days. */
  doneTtlMs?: number;
}

// KEYS[1] the event's key; ARGV[1] the claimant's token. Only the claimant may change a live claim.
const RENEW = `if redis.call('GET', KEYS[1]) == 'lease:' .. ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
// Then the partner's commands, each as its length and its words, in the same step as the mark.
const COMPLETE = `if redis.call('GET', KEYS[1]) ~= 'lease:' .. ARGV[1] then return 0 end
local i = 3
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2]) return 1`;
const RELEASE = `if redis.call('GET', KEYS[1]) == 'lease:' .. ARGV[1] then
  return redis.call('DEL', KEYS[1]) end return 0`;
// One step, so the key cannot expire between the GET and the PTTL.
const INSPECT = `return { redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1]) }`;

/**
 * A {@link WebhookStore} in Redis, on the partner's own connected client: `redis` (node-redis v4 or v5) or
 * `ioredis`. A claim is `SET key lease:<token> NX PX <leaseMs>`, so exactly one replica gets it and Redis expires
 * it after a crash; renewing, completing and releasing each run a Lua script that checks the token and changes
 * the key as one step. A done event is kept `doneTtlMs` (30 days). For exactly once across a crash, hand the
 * function's Redis writes to `context.complete` ({@link RedisCommands}), which runs them in the marking script.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'; // or: new Redis(url) of ioredis
 * import { createWebhookHandler, redisWebhookStore } from 'inr-payouts/webhooks/handler';
 *
 * // Fail fast while Redis is down, so deliveries answer 503 (ioredis: enableOfflineQueue: false).
 * const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', disableOfflineQueue: true });
 * redis.on('error', (error) => console.error(error.message)); // else an outage ends the process
 * // await redis.connect() before serving
 * const handle = createWebhookHandler({
 *   secret: 'whsec_example',
 *   store: redisWebhookStore(redis),
 *   on: { 'transaction.payout_completed': async (event) => console.log(event.data.utr) },
 * });
 * ```
 */
export function redisWebhookStore(
  client: NodeRedisLike | IoRedisLike,
  options: RedisWebhookStoreOptions = {},
): WebhookStore<RedisCommands> {
  const { prefix = 'inr-payouts:webhook:', doneTtlMs = 30 * 86_400_000 } = options;
  if (!(doneTtlMs >= 1)) throw new RangeError('redisWebhookStore: doneTtlMs must be at least 1.');
  const command = (args: string[]): Promise<unknown> =>
    'call' in client ? client.call(args[0] ?? '', ...args.slice(1)) : client.sendCommand(args);
  const script = (source: string, eventId: string, ...args: string[]) =>
    command(['EVAL', source, '1', prefix + eventId, ...args]);
  const ms = (value: number) => String(Math.max(1, Math.ceil(value)));
  return {
    async claim(eventId, token, leaseMs): Promise<ClaimResult> {
      const set = await command(['SET', prefix + eventId, `lease:${token}`, 'NX', 'PX', ms(leaseMs)]);
      if (set === 'OK') return { state: 'claimed' };
      const [value, ttl] = (await script(INSPECT, eventId)) as [unknown, unknown];
      if (value === 'done') return { state: 'done' };
      return { state: 'busy', retryAfterMs: Math.max(0, Number(ttl)) };
    },
    async renew(eventId, token, leaseMs) {
      return Number(await script(RENEW, eventId, token, ms(leaseMs))) === 1;
    },
    async complete(eventId, token, within = []) {
      const commands = within.flatMap((command) => [String(command.length), ...command]);
      return Number(await script(COMPLETE, eventId, token, ms(doneTtlMs), ...commands)) === 1;
    },
    async release(eventId, token) {
      await script(RELEASE, eventId, token);
    },
  };
}
