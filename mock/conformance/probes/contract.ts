/**
 * The request rules as the published contract states them: each operation's body schema and query parameters
 * read from `openapi.json`, the document the package ships (`inr-payouts/openapi.json`), resolved by the
 * package's own name so the same file is read from source, from dist and once installed. The probes derive
 * their cases from this text only, never from the mock's routes or parsers.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isPlainObject } from '../../../src/shared/plain-object.js';

/** A JSON Schema node of the document. */
export type SchemaNode = Record<string, unknown>;

/** What one operation of the contract takes: its body's schema and its query parameters. */
export interface RequestContract {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The path with `{name}` parameters, as the document writes it. */
  path: string;
  /** The JSON body's schema, when the operation takes one. */
  body?: SchemaNode;
  /** Each query parameter's schema, and whether it is required. */
  query: { name: string; required: boolean; schema: SchemaNode }[];
}

let cached: RequestContract[] | undefined;

/** The operations of the published document that take a body or a query, in the document's order. */
export function requestContracts(): RequestContract[] {
  cached ??= readContracts(
    JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('inr-payouts/openapi.json'), 'utf8'),
    ) as unknown,
  );
  return cached;
}

const METHODS = ['get', 'post', 'put'] as const;

/** The request contracts of an OpenAPI document (only its `/v2` operations). */
export function readContracts(document: unknown): RequestContract[] {
  const paths = isPlainObject(document) && isPlainObject(document.paths) ? document.paths : {};
  const out: RequestContract[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/v2/') || !isPlainObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isPlainObject(operation) || typeof operation.operationId !== 'string') continue;
      const body = jsonBodyOf(operation.requestBody);
      const query = (Array.isArray(operation.parameters) ? operation.parameters : []).flatMap((p) =>
        isPlainObject(p) && p.in === 'query' && typeof p.name === 'string' && isPlainObject(p.schema)
          ? [{ name: p.name, required: p.required === true, schema: p.schema }]
          : [],
      );
      if (!body && query.length === 0) continue;
      out.push({
        operationId: operation.operationId,
        method: method.toUpperCase() as RequestContract['method'],
        path,
        ...(body ? { body } : {}),
        query,
      });
    }
  }
  return out;
}

function jsonBodyOf(requestBody: unknown): SchemaNode | undefined {
  if (!isPlainObject(requestBody) || !isPlainObject(requestBody.content)) return undefined;
  const json = requestBody.content['application/json'];
  return isPlainObject(json) && isPlainObject(json.schema) ? json.schema : undefined;
}
