/**
 * What the pipeline itself serves: the timer tasks of the shared rules, and a catch-all that answers an
 * unknown `/v2` path with 404 (after auth, like any endpoint) rather than letting it through.
 */
import { MockApiError } from '../engine/errors.js';
import { defineModule } from '../engine/module.js';
import { catchAllRoute } from '../engine/route.js';
import { idempotencyExpire } from '../policies/idempotency.js';

/** Where the endpoints are listed, for a caller that named none of them. */
const ENDPOINT_LIST =
  'openapi.json lists every endpoint (GET /openapi.json on npx inr-payouts-mock, inr-payouts/openapi.json in the package)';

/**
 * The catch-all route; served after every module. Its 404 says no endpoint has that method and path, so it is
 * not read as a record lost: a missing record of a real endpoint answers that endpoint's own code
 * (`USER_NOT_FOUND`, `TRANSACTION_NOT_FOUND`).
 */
export const notFoundRoute = catchAllRoute('/v2/*', ({ request }) => {
  const { pathname } = new URL(request.url);
  const endpoint = `${request.method} ${pathname}`;
  throw new MockApiError(
    404,
    {
      error: 'Not Found',
      message: `No endpoint ${endpoint}: the API has no such method and path (this is not a missing record); ${ENDPOINT_LIST}`,
      code: 'NOT_FOUND',
    },
    undefined,
    {
      because: `no endpoint of the API is ${endpoint}`,
      section: '4',
      change: `call a method and path the API has: ${ENDPOINT_LIST}`,
    },
  );
});

/** The pipeline's tasks (its catch-all is appended separately, after every other route). */
export const pipelineModule = defineModule({
  name: 'pipeline',
  routes: [],
  // `webhook.deliver` is registered by the webhooks module (mock/routes/webhooks.ts).
  tasks: [idempotencyExpire],
});
