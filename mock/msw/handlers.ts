/**
 * The msw adapter: one handler that hands every request under a service's base URL to its dispatch. Built on
 * first read of `mock.handlers`, so msw is loaded only by a partner who uses it.
 */
import type { HttpHandler } from 'msw';
import { loadMsw } from './load.js';

/**
 * msw handlers over `dispatch` for every URL that starts with `prefix`; a request the dispatch does not serve
 * (`undefined`) passes on to the next handler.
 */
export function mswHandlers(
  prefix: string,
  dispatch: (request: Request) => Promise<Response | undefined>,
): HttpHandler[] {
  const { http } = loadMsw();
  // A custom predicate: a prefix test, rather than a path pattern msw would compile and match per request.
  return [
    http.all(
      ({ request }) => request.url.startsWith(prefix),
      ({ request }) => dispatch(request),
    ),
  ];
}
