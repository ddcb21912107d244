/**
 * What the pipeline itself serves: the timer tasks of the shared rules, and a catch-all that answers an
 * unknown `/v2` path with 404 (after auth, like any endpoint) rather than letting it through.
 */
import { MockApiError } from '../engine/errors.js';
import { defineModule } from '../engine/module.js';
import { catchAllRoute } from '../engine/route.js';
import { idempotencyExpire } from '../policies/idempotency.js';

/** The catch-all route; served after every module. */
export const notFoundRoute = catchAllRoute('/v2/*', ({ request }) => {
  const { pathname } = new URL(request.url);
  throw new MockApiError(404, {
    error: 'Not Found',
    message: `No endpoint ${request.method} ${pathname}`,
    code: 'NOT_FOUND',
  });
});

/** The pipeline's tasks (its catch-all is appended separately, after every other route). */
export const pipelineModule = defineModule({
  name: 'pipeline',
  routes: [],
  // `webhook.deliver` is registered by the webhooks module (mock/routes/webhooks.ts).
  tasks: [idempotencyExpire],
});
