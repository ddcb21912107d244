/**
 * `GET /openapi.json` and `GET /openapi.mock.json`: the OpenAPI 3.1 documents the package ships (the API's,
 * `inr-payouts/openapi.json`, and the test helpers', `inr-payouts/openapi.mock.json`, generated from the
 * schemas, the route table and the helper contract), with this server as their server URL, so a client
 * generator or a script in another language can start from the running mock.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The path the API's document is served at. */
export const OPENAPI_PATH = '/openapi.json';

/** The methods the documents answer (HEAD as GET without the body); any other is 405. */
export const OPENAPI_METHODS: readonly string[] = ['GET', 'HEAD'];

/** The path the helpers' document is served at. */
export const MOCK_OPENAPI_PATH = '/openapi.mock.json';

const cached = new Map<string, Record<string, unknown>>();

/** The package's own export, resolved by name: the same file from source, from dist and once installed. */
function shipped(name: string): Record<string, unknown> {
  const read = () => readFileSync(createRequire(import.meta.url).resolve(`inr-payouts${name}`), 'utf8');
  const doc = cached.get(name) ?? (JSON.parse(read()) as Record<string, unknown>);
  cached.set(name, doc);
  return doc;
}

/** The document at `path` (`OPENAPI_PATH` or `MOCK_OPENAPI_PATH`), served by the server at `baseUrl`. */
export function serveOpenApi(baseUrl: string, path: string = OPENAPI_PATH): Response {
  return Response.json({
    ...shipped(path),
    servers: [{ url: baseUrl, description: 'this inr-payouts-mock' }],
  });
}
