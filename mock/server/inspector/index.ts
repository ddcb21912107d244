/**
 * The inspector, `GET /__pages/inspector`: what the mock did and where everything stands, rendered on the
 * server from the journal and the state (filters are the query string: `userId`, `transactionId`, `type`,
 * `limit`). It sits behind the same local-only guard and framing protections as the other pages, and adds a
 * content security policy that runs only its own inline style and script, so nothing a partner sent can run.
 */
import { randomBytes } from 'node:crypto';
import type { MockService } from '../../service.js';
import { inspectorModel, readQuery } from './model.js';
import { INSPECTOR_PATH, renderInspector } from './render.js';

export { INSPECTOR_PATH } from './render.js';

/**
 * The inspector's content security policy: nothing loads from anywhere, only the page's own style and script
 * (by `nonce`) run, forms post back here only, and no site may frame it.
 */
export function inspectorPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Answers a request for the inspector page (`GET` or `HEAD`; any other method 405). */
export function serveInspector(service: MockService, request: Request): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(`The inspector only reads: open ${INSPECTOR_PATH} with GET.`, {
      status: 405,
      headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const nonce = randomBytes(16).toString('base64');
  const model = inspectorModel(service, readQuery(new URL(request.url).searchParams));
  return new Response(request.method === 'HEAD' ? null : renderInspector(model, nonce), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': inspectorPolicy(nonce),
    },
  });
}
