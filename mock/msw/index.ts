/**
 * `inr-payouts/mock/msw`: msw handlers for a mock service, with msw 2 or 3. An entry of its own, so msw is
 * loaded only by a partner who imports it: `inr-payouts/mock` itself never imports msw (`mock.fetch` needs none).
 *
 * @module inr-payouts/mock/msw
 */
import { type HttpHandler, http } from 'msw';

/** What the handlers serve: a mock service (`createMockService()`), or anything with its `baseUrl` and `dispatch`. */
export interface MswTarget {
  /** The handlers answer every URL that starts with it. */
  readonly baseUrl: string;
  /** Answers a request, or `undefined` for one it does not serve (it passes on to the next handler). */
  dispatch(request: Request): Promise<Response | undefined>;
}

/**
 * msw handlers that hand every request under `mock.baseUrl` to the mock: `setupServer(...mswHandlers(mock))`,
 * `server.use(...)`, or `getResponse(...)`. One handler serves the whole API; a request it does not serve passes
 * on to the next handler. Each call builds new handlers over the same mock.
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from 'inr-payouts/mock';
 * import { mswHandlers } from 'inr-payouts/mock/msw';
 *
 * const mock = createMockService({ seed: 'my-tests' });
 * const server = setupServer(...mswHandlers(mock));
 * server.listen();
 * const response = await fetch(`${mock.baseUrl}/v2/account`, {
 *   headers: { Authorization: `Bearer ${mock.sandboxKey}` },
 * });
 * if (response.status !== 200) throw new Error('msw hands the request to the mock');
 * server.close();
 * ```
 */
export function mswHandlers(mock: MswTarget): HttpHandler[] {
  const prefix = mock.baseUrl;
  // A custom predicate: a prefix test, rather than a path pattern msw would compile and match per request.
  return [
    http.all(
      ({ request }) => request.url.startsWith(prefix),
      ({ request }) => mock.dispatch(request),
    ),
  ];
}

/** What msw does with a request no handler serves: fail it, warn and send it, or send it silently. */
export type UnhandledStrategy = 'error' | 'warn' | 'bypass';

/** `server.listen` options for msw 2 and msw 3 alike: each major reads its own name and ignores the other's. */
export interface UnhandledOptions<S extends UnhandledStrategy> {
  /** msw 2's name. */
  readonly onUnhandledRequest: S;
  /** msw 3's name: msw 3 ignores `onUnhandledRequest`, so a guard written for msw 2 alone is silently off. */
  readonly onUnhandledFrame: S;
}

/**
 * `server.listen` options that treat a request no handler serves the same way on msw 2 and msw 3, which renamed
 * the option (`onUnhandledRequest` became `onUnhandledFrame`). `'error'` makes a test fail on a request that would
 * otherwise reach the network; `'bypass'` lets it through (a webhook delivered to your real receiver).
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from 'inr-payouts/mock';
 * import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
 *
 * const mock = createMockService();
 * const server = setupServer(...mswHandlers(mock));
 * server.listen(onUnhandled('error'));
 * const refused = await fetch('http://127.0.0.1:9/not-mocked').then(
 *   () => false,
 *   () => true,
 * );
 * if (!refused) throw new Error('a request no handler serves fails');
 * server.close();
 * ```
 */
export function onUnhandled<S extends UnhandledStrategy>(strategy: S): UnhandledOptions<S> {
  return { onUnhandledRequest: strategy, onUnhandledFrame: strategy };
}
