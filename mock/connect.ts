/**
 * `connectMock(baseUrl)`: the test helpers of a running `npx inr-payouts-mock`, with the same names, arguments
 * and answers as `createMockService().helpers`, each returning a promise. Code written against
 * `MockHelperCalls` (every call awaited) runs in-process or against a server by changing one line.
 */

import { isPlainObject } from '../src/shared/plain-object.js';
import { helperPath, httpHelpers, type InProcessOnlyHelper } from './contract/helpers.js';
import { MockArgumentError, MockHelperError, MockTransitionError } from './engine/errors.js';
import type { MockHelpers } from './helpers/index.js';

type Callable = (...args: never[]) => unknown;

type GroupOf<G extends string, H> = {
  [A in keyof H as `${G}.${A & string}` extends InProcessOnlyHelper ? never : A]: H[A];
};

/** The helpers that work over HTTP, with their in-process types. */
type HttpHelpers = {
  [K in keyof MockHelpers]: MockHelpers[K] extends Callable ? MockHelpers[K] : GroupOf<K, MockHelpers[K]>;
};

type Remote<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
type Either<F> = F extends (...args: infer A) => infer R ? (...args: A) => R | Promise<Awaited<R>> : never;

/** The helpers of a server, as `connectMock` returns them: each in-process helper, answering a promise. */
export type RemoteMockHelpers = {
  [K in keyof HttpHelpers]: HttpHelpers[K] extends Callable
    ? Remote<HttpHelpers[K]>
    : { [A in keyof HttpHelpers[K]]: Remote<HttpHelpers[K][A]> };
};

/**
 * What both `createMockService().helpers` and `connectMock(url)` are: write tests against this and `await`
 * every call, and they run in-process or against a standalone server alike.
 */
export type MockHelperCalls = {
  [K in keyof HttpHelpers]: HttpHelpers[K] extends Callable
    ? Either<HttpHelpers[K]>
    : { [A in keyof HttpHelpers[K]]: Either<HttpHelpers[K][A]> };
};

/** The in-process error a refused HTTP answer stands for, so `catch` blocks work the same either way. */
function refusalError(status: number, body: unknown, name: string): Error {
  const answer = isPlainObject(body) ? body : {};
  const message = typeof answer.message === 'string' ? answer.message : `helpers.${name} answered ${status}`;
  if (answer.code === 'INVALID_HELPER_ARGUMENT') {
    return new MockArgumentError(message, typeof answer.field === 'string' ? answer.field : '');
  }
  if (answer.code === 'TRANSITION_REFUSED') {
    const allowed = Array.isArray(answer.allowed) ? answer.allowed.map(String) : [];
    return new MockTransitionError({ message, state: String(answer.state ?? ''), allowed });
  }
  return new MockHelperError(message);
}

/**
 * The test helpers of a standalone mock server at `baseUrl`, typed as the in-process ones (see
 * `RemoteMockHelpers`). Each call is one `POST /__mock/...` with `{ "args": [...] }`; a refusal rejects with
 * the error the in-process helper throws (`MockArgumentError`, `MockTransitionError`, `MockHelperError`).
 * @example
 * ```ts
 * import { connectMock } from 'inr-payouts/mock';
 * const helpers = connectMock('http://127.0.0.1:4010');
 * // const { userId } = await helpers.users.seedVerified({ mobile: '9876543210' });
 * ```
 */
export function connectMock(baseUrl: string, options: { fetch?: typeof fetch } = {}): RemoteMockHelpers {
  const send = options.fetch ?? globalThis.fetch;
  const root = baseUrl.replace(/\/+$/, '');
  const call =
    (name: string) =>
    async (...args: unknown[]): Promise<unknown> => {
      const response = await send(`${root}${helperPath(name)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ args }),
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        throw new MockHelperError(`helpers.${name} answered ${response.status} with a body that is not JSON`);
      }
      if (!response.ok) throw refusalError(response.status, body, name);
      return isPlainObject(body) ? body.data : undefined;
    };
  const helpers: Record<string, unknown> = {};
  // Only what the server serves: an in-process-only helper (`webhooks.useFetch`) is neither typed nor built.
  for (const [name] of httpHelpers()) {
    const [group = '', action] = name.split('.');
    if (action === undefined) {
      helpers[group] = call(name);
      continue;
    }
    const holder = isPlainObject(helpers[group]) ? helpers[group] : {};
    holder[action] = call(name);
    helpers[group] = holder;
  }
  // Built from the same contract the type is derived from; the contract test keeps both complete.
  return helpers as RemoteMockHelpers;
}
