import type * as z from 'zod/mini';
import { ApiPromise, type Outcome } from '../core/api-promise.js';
import { APIError } from '../core/errors.js';
import { type Call, pathParam, type Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import {
  ENDPOINTS,
  type Endpoint,
  type OperationId,
  PATH_PARAM,
  type PathParams,
} from '../endpoints/index.js';

/** The endpoint table's row of `Id`. */
type Row<Id extends OperationId> = (typeof ENDPOINTS)[Id];

/** What one call of an endpoint carries besides the endpoint's own facts. */
interface CallInputs<Path extends string> {
  params?: PathParams<Path>;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

/** What an endpoint's call resolves to: its `data`, or the whole envelope when it has siblings of `data`. */
type Answer<E> = E extends { envelope: infer S extends z.ZodMiniType }
  ? z.infer<S>
  : E extends { data: infer S extends z.ZodMiniType }
    ? z.infer<S>
    : never;

/**
 * Builds the call and sends it. A bad path parameter becomes a rejected promise (with nothing sent) rather
 * than a synchronous throw, so every method fails the same way.
 */
export function send<T>(transport: Transport, build: () => Call<T>, options?: RequestOptions): ApiPromise<T> {
  let call: Call<T>;
  try {
    call = build();
  } catch (error) {
    return new ApiPromise(Promise.reject(error));
  }
  return transport.request(call, options);
}

/** Sends one call of the endpoint table's row `id`, with its path parameters checked and encoded. */
export function callEndpoint<Id extends OperationId>(
  transport: Transport,
  id: Id,
  inputs: CallInputs<Row<Id>['path']>,
  options: RequestOptions | undefined,
): ApiPromise<Answer<Row<Id>>> {
  return send(
    transport,
    () => {
      const endpoint: Endpoint = ENDPOINTS[id];
      const params: Record<string, string> = inputs.params ?? {};
      // The row's schemas are the answer's by construction; zod's types cannot see through the union of rows.
      const answer = (endpoint.envelope ?? endpoint.data) as z.ZodMiniType<Answer<Row<Id>>>;
      return {
        method: endpoint.method,
        operationId: id,
        urlTemplate: endpoint.path,
        path: endpoint.path.replace(PATH_PARAM, (_, name: string) => pathParam(name, params[name])),
        body: inputs.body,
        bodySchema: endpoint.body,
        query: inputs.query,
        querySchema: endpoint.query as z.ZodMiniType<Record<string, unknown>> | undefined,
        ...(endpoint.envelope ? { envelopeSchema: answer } : { dataSchema: answer }),
      };
    },
    options,
  );
}

/** The operations whose only path parameter is `{userId}`: a step of one user's verification or KYC. */
type UserOperation = {
  [Id in OperationId]: keyof PathParams<Row<Id>['path']> extends 'userId' ? Id : never;
}[OperationId];

/** Sends `body` to a user's step, the row `id` under `/v2/users/{userId}`. */
export function callForUser<Id extends UserOperation>(
  transport: Transport,
  id: Id,
  userId: string,
  body: unknown,
  options: RequestOptions | undefined,
): ApiPromise<Answer<Row<Id>>> {
  // `UserOperation` holds only the rows whose path names `userId` alone.
  const params = { userId } as PathParams<Row<Id>['path']>;
  return callEndpoint(transport, id, { params, body }, options);
}

/**
 * Turns an error answer that is really an outcome (a `success: false` body the spec lists as a variant, such as
 * an expired document-locker session or a PEP rejection) into a result: the error's `data`, when `variant`
 * parses it; the rest stay errors.
 */
export function recoverAs<T, R>(promise: ApiPromise<T>, variant: z.ZodMiniType<R>): ApiPromise<T | R> {
  return new ApiPromise<T | R>(
    promise.outcome().catch((error: unknown) => {
      if (!(error instanceof APIError) || error.status === undefined) throw error;
      const { success, data } = variant.safeParse(error.data);
      if (!success) throw error;
      const text = error.body === undefined ? '' : JSON.stringify(error.body);
      const response = new Response(text || null, { status: error.status, headers: error.headers });
      const outcome: Outcome<R> = { data, response, text, attempts: 1, idempotencyKey: error.idempotencyKey };
      const body = error.body as { message?: unknown } | undefined;
      if (typeof body?.message === 'string') outcome.message = body.message;
      return outcome;
    }),
  );
}
