/**
 * `GET /openapi.json`: the OpenAPI 3.1 document the package ships (`inr-payouts/openapi.json`, generated from
 * the schemas and the route table), with this server as its server URL, so a client generator or a script in
 * another language can start from the running mock.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The path the document is served at. */
export const OPENAPI_PATH = '/openapi.json';

/** The methods the document answers (HEAD as GET without the body); any other is 405. */
export const OPENAPI_METHODS: readonly string[] = ['GET', 'HEAD'];

let cached: Record<string, unknown> | undefined;

function shipped(): Record<string, unknown> {
  // The package's own export, resolved by name: the same file from source, from dist and once installed.
  cached ??= JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('inr-payouts/openapi.json'), 'utf8'),
  ) as Record<string, unknown>;
  return cached;
}

/**
 * The document, served by the server at `baseUrl`.
 * @example
 * if (path === OPENAPI_PATH) return serveOpenApi(service.baseUrl);
 */
export function serveOpenApi(baseUrl: string): Response {
  return Response.json({ ...shipped(), servers: [{ url: baseUrl, description: 'this inr-payouts-mock' }] });
}
