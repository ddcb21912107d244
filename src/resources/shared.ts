import type * as z from 'zod/mini';
import { ApiPromise, type Outcome } from '../core/api-promise.js';
import { APIError } from '../core/errors.js';
import { type Call, pathParam, type Transport } from '../core/transport.js';
import type { RequestOptions } from '../core/types.js';
import { type Endpoint, operationIdOf, PATH_PARAM, type PathParams } from '../endpoints/index.js';

/** What one call of an endpoint carries besides the endpoint's own facts. */
interface CallInputs<Path extends string> {
  params?: PathParams<Path>;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

/** What an endpoint's call resolves to: its `data`, or the whole envelope when it has siblings of `data`. */
type Answer<E extends Endpoint> = E extends { envelope: infer S extends z.ZodMiniType }
  ? z.infer<S>
  : z.infer<E['data']>;

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

/** Sends one call of `endpoint`, a row of the endpoint table, with its path parameters checked and encoded. */
export function callEndpoint<E extends Endpoint>(
  transport: Transport,
  endpoint: E,
  inputs: CallInputs<E['path']>,
  options: RequestOptions | undefined,
): ApiPromise<Answer<E>> {
  return send(
    transport,
    () => {
      const params: Record<string, string> = inputs.params ?? {};
      // The row's schemas are the answer's by construction; zod's types cannot see through the union of rows.
      const answer = (endpoint.envelope ?? endpoint.data) as z.ZodMiniType<Answer<E>>;
      return {
        method: endpoint.method,
        operationId: operationIdOf(endpoint),
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

/**
 * Turns an error answer that is really an outcome (a `success: false` body the spec lists as a variant, such as
 * an expired document-locker session or a PEP rejection) into a result. `recover` returns the result for errors it
 * recognises and `undefined` for the rest, which stay errors.
 */
export function recoverAs<T, R>(
  promise: ApiPromise<T>,
  recover: (error: APIError) => R | undefined,
): ApiPromise<T | R> {
  return new ApiPromise<T | R>(
    promise.outcome().catch((error: unknown) => {
      const data = error instanceof APIError ? recover(error) : undefined;
      if (!(error instanceof APIError) || error.status === undefined || data === undefined) throw error;
      const text = error.body === undefined ? '' : JSON.stringify(error.body);
      const response = new Response(text || null, { status: error.status, headers: error.headers });
      const outcome: Outcome<R> = { data, response, text, attempts: 1, idempotencyKey: error.idempotencyKey };
      const body = error.body as { message?: unknown } | undefined;
      if (typeof body?.message === 'string') outcome.message = body.message;
      return outcome;
    }),
  );
}
