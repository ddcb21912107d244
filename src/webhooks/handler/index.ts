/**
 * `inr-payouts/webhooks/handler`: one handler that verifies each webhook, claims its event ID in a store shared by
 * every replica, runs the partner's function once, and answers as the service's retry rules need (spec 6.4); the
 * stores for PostgreSQL (`pg`, `postgres`), Redis (`redis`, `ioredis`) and memory; the node:http, Express and
 * Fastify adapter. An entry of its own, so `inr-payouts/webhooks` stays a verifier under its size budget.
 * docs/webhooks-in-production.md is the guide.
 *
 * @example
 * ```ts
 * import { createWebhookHandler, memoryWebhookStore } from 'inr-payouts/webhooks/handler';
 *
 * export const POST = createWebhookHandler({
 *   secret: 'whsec_example',
 *   store: memoryWebhookStore(),
 *   on: { 'transaction.payout_completed': async (event) => console.log(event.data.utr) },
 * });
 * ```
 * @packageDocumentation
 *
 * @module inr-payouts/webhooks/handler
 */

export {
  createWebhookHandler,
  type DeliveryContext,
  type DeliveryOutcome,
  type DeliveryTrace,
  type WebhookEventHandler,
  type WebhookEventHandlers,
  type WebhookHandlerOptions,
} from './handler.js';
export type { WebhookLogger, WebhookLogLevel, WebhookLogLimit } from './log.js';
export {
  type FastifyReplyLike,
  type FastifyRequestLike,
  type NodeHandlerOptions,
  type NodeRequestLike,
  type NodeResponseLike,
  PARSED_BODY_MESSAGE,
  toNodeHandler,
} from './node.js';
export {
  type PgQueryable,
  type PostgresJsSql,
  type PostgresWebhookStoreOptions,
  postgresWebhookStore,
} from './postgres.js';
export {
  type IoRedisLike,
  type NodeRedisLike,
  type RedisCommands,
  type RedisWebhookStoreOptions,
  redisWebhookStore,
} from './redis.js';
export {
  type ClaimResult,
  type MemoryWebhookStoreOptions,
  memoryWebhookStore,
  type WebhookStore,
} from './store.js';
