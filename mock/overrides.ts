/**
 * Per-test overrides of one operation (`mock.override('transactions.create', resolver)`), in the style of
 * MSW's `server.use` without a hand-written URL: operation ids are the OpenAPI document's (`transactions.create`
 * is `client.transactions.create`), the request body and the answer's `data` are typed as the client types them,
 * and a resolver that returns nothing falls back to the mock's own route. An override runs where the route would,
 * after authentication, rate limiting, idempotency and the body and query validation.
 */
import type * as z from 'zod/mini';
import type { PayoutClient } from '../src/client.js';
import { ENDPOINTS, type OperationId } from '../src/endpoints/index.js';
import type { MockResult } from './engine/respond.js';
import type { RouteContext, RouteOverride, RouteOverrides } from './engine/route.js';

/** An operation ID: the client method's path, as the OpenAPI document's `operationId`. */
export type { OperationId };

type At<T, K extends string> = K extends keyof T ? T[K] : never;
type ClientMethod<Id extends string> = Id extends `${infer A}.${infer B}.${infer C}`
  ? At<At<At<PayoutClient, A>, B>, C>
  : Id extends `${infer A}.${infer B}`
    ? At<At<PayoutClient, A>, B>
    : never;
type Params<Id extends OperationId> = ClientMethod<Id> extends (...args: infer P) => unknown ? P : never;

/** The request body of an operation as the client types it (`undefined` for one without a body). */
export type OperationBody<Id extends OperationId> =
  Params<Id> extends [string, infer B extends object, ...unknown[]]
    ? B
    : Params<Id> extends [(infer B extends object)?, ...unknown[]]
      ? B
      : undefined;

/** The success `data` of an operation as the client types it. */
export type OperationData<Id extends OperationId> =
  ClientMethod<Id> extends (...args: never[]) => infer R ? Awaited<R> : never;

/** The query of an operation as its row's schema validates it (the raw first values for one without). */
export type OperationQuery<Id extends OperationId> = (typeof ENDPOINTS)[Id] extends {
  query: infer Schema extends z.ZodMiniType;
}
  ? z.infer<Schema>
  : Record<string, string>;

/** What an override resolver gets: the route's context with the validated body and query typed. */
export type OverrideResolver<Id extends OperationId> = (
  ctx: Omit<RouteContext, 'body' | 'query'> & { body: OperationBody<Id>; query: OperationQuery<Id> },
) =>
  | (Omit<MockResult, 'data'> & { data: OperationData<Id> })
  | Response
  | undefined
  | Promise<(Omit<MockResult, 'data'> & { data: OperationData<Id> }) | Response | undefined>;

/** The overrides of one service: `set` and `clear` fill the map the service's pipeline consults. */
export function createOverrides(byOperation: RouteOverrides) {
  return {
    /** Overrides `operationId` until the returned function is called (or `clear`). */
    set<Id extends OperationId>(operationId: Id, resolver: OverrideResolver<Id>): () => void {
      if (!Object.hasOwn(ENDPOINTS, operationId)) {
        throw new TypeError(`No operation ${operationId}: use an operationId of openapi.json`);
      }
      // The route validated the body with the schema the client's type comes from.
      const erased = resolver as unknown as RouteOverride;
      byOperation.set(operationId, erased);
      return () => {
        if (byOperation.get(operationId) === erased) byOperation.delete(operationId);
      };
    },
    clear(): void {
      byOperation.clear();
    },
  };
}
