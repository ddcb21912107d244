/**
 * The OpenAPI 3.1 document of the partner interface, generated, never written by hand: paths from the mock's
 * route table (`mock/handlers/`), bodies and answers from the shared schemas (`src/schemas/`), the operation
 * facts of `operations.ts`, the refinement rules of `rules.ts`, the ten webhook payloads, and the test helpers
 * (`/__mock/...`, marked `x-mock-only`) from the helper contract. `npm run build` writes it to `openapi.json`;
 * a test compares that file with a fresh generation.
 */
import * as z from 'zod/mini';
import { ErrorBodyA, ErrorBodyB, RateLimitErrorBody } from '../../src/schemas/common.js';
import { Pagination } from '../../src/schemas/webhooks.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../src/webhooks/common.js';
import type { RouteDefinition } from '../core/route.js';
import { modules } from '../handlers/index.js';
import { HELPER_CONTRACT, type HelperSpec, helperPath } from '../helpers/contract.js';
import { OPERATIONS, type OperationSpec } from './operations.js';
import { REQUEST_RULES, type Rule } from './rules.js';
import { WEBHOOK_PAYLOADS } from './webhook-payloads.js';

type Json = Record<string, unknown>;

/**
 * The decisions of `docs/assumptions.md`, topic → decision, that the document marks with `x-assumption`.
 * @example
 * const decisions: Assumptions = new Map([['Create a user', 'POST /v2/users, ...']]);
 */
export type Assumptions = ReadonlyMap<string, string>;

function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Merges each rule into the schema node at its field path (`''` the object itself). */
function withRules(schema: Json, rules: Record<string, Rule> | undefined): Json {
  for (const [path, rule] of Object.entries(rules ?? {})) {
    let node: unknown = schema;
    for (const key of path ? path.split('.') : []) {
      node = isJson(node) && isJson(node.properties) ? node.properties[key] : undefined;
    }
    if (!isJson(node)) throw new Error(`rules.ts names ${path}, which the schema does not have`);
    Object.assign(node, rule);
  }
  return schema;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function errorResponse(description: string, shape: 'A' | 'B'): Json {
  // Shape B endpoints answer their own errors in B, and the pipeline's (auth, rate limit) in A (spec 7.1).
  const schema = shape === 'A' ? ref('ErrorA') : { anyOf: [ref('ErrorB'), ref('ErrorA')] };
  return { description, content: { 'application/json': { schema } } };
}

// Spec 5.4 and 5.5 give the 401 and 403 bodies as `error` and `message` only.
function authError(description: string): Json {
  return { description, content: { 'application/json': { schema: ref('AuthError') } } };
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) the window resets', schema: { type: 'integer' } },
};

function assumptionsOf(topics: string[] | undefined, decisions: Assumptions): Json[] | undefined {
  if (!topics?.length) return undefined;
  return topics.map((topic) => {
    const decision = decisions.get(topic);
    if (decision === undefined) throw new Error(`docs/assumptions.md has no topic "${topic}"`);
    return { topic, decision };
  });
}

function operation(route: RouteDefinition, spec: OperationSpec, decisions: Assumptions): Json {
  const shape = spec.alsoShapeB ? 'B' : route.shape;
  const rules = REQUEST_RULES[spec.operationId];
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1 },
  }));
  const query = spec.query ? withRules(jsonSchema(spec.query, 'input'), rules?.query) : undefined;
  const required = Array.isArray(query?.required) ? query.required : [];
  const queryParams = Object.entries(isJson(query?.properties) ? query.properties : {}).map(
    ([name, schema]) => ({
      name,
      in: 'query',
      required: required.includes(name),
      schema,
    }),
  );
  const idempotency = route.idempotent
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes the request safe to repeat for 24 hours (spec 8, Idempotency)',
          schema: { type: 'string', minLength: 1 },
        },
      ]
    : [];
  const envelope: Json = {
    type: 'object',
    properties: {
      success: { const: true },
      data: jsonSchema(spec.data, 'output'),
      message: { type: 'string' },
      ...(spec.paginated ? { pagination: ref('Pagination') } : {}),
    },
    required: ['success', 'data', ...(spec.paginated ? ['pagination'] : [])],
  };
  const success = { description: 'Success', content: { 'application/json': { schema: envelope } } };
  const status = String(spec.status ?? 200);
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: `Spec section ${spec.section}.`,
    tags: [route.path.split('/')[2] ?? 'v2'],
    parameters: [...pathParams, ...queryParams, ...idempotency],
    ...(route.bodySchema
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: withRules(jsonSchema(route.bodySchema, 'input'), rules?.body) },
            },
          },
        }
      : {}),
    responses: {
      [status]: success,
      // An idempotent replay answers 200 with the first answer's body (spec 8, Idempotency).
      ...(status === '201' ? { '200': { ...success, description: 'Idempotent replay' } } : {}),
      '400': errorResponse(
        shape === 'A'
          ? 'Invalid parameters: shape A, `code: VALIDATION_ERROR` with `details`'
          : 'Invalid parameters: shape B, `error: Validation Error` with `details`',
        shape,
      ),
      '401': authError('Missing or invalid API key (spec 5.4)'),
      '403': authError('Address not on the allow-list (spec 5.5)'),
      '404': errorResponse('Not found', shape),
      '409': errorResponse('Conflict (IDEMPOTENCY_CONFLICT among others)', shape),
      '422': errorResponse('Refused by a business rule', shape),
      '429': {
        description: 'Rate limited',
        headers: RATE_HEADERS,
        content: { 'application/json': { schema: { anyOf: [ref('RateLimitError'), ref('ErrorB')] } } },
      },
      '500': errorResponse('Internal error', shape),
      '503': errorResponse('Service unavailable', shape),
    },
    security: [{ bearerAuth: [] }],
    'x-error-identifiers': spec.errors,
    ...(assumptionsOf(spec.assumptions, decisions)
      ? { 'x-assumption': assumptionsOf(spec.assumptions, decisions) }
      : {}),
  };
}

function helperOperation(name: string, spec: HelperSpec): Json {
  const args = spec.args.map((schema) => jsonSchema(schema, 'input'));
  const single = args.length === 1 ? args[0] : undefined;
  const argsForm = {
    type: 'object',
    properties: { args: { type: 'array', prefixItems: args } },
    required: ['args'],
  };
  return {
    post: {
      operationId: `mock.${name}`,
      summary: spec.summary,
      tags: ['mock helpers'],
      'x-mock-only': true,
      ...(args.length
        ? {
            requestBody: {
              required: false,
              description:
                'The one argument as the JSON body, or every argument as `{ "args": [...] }` (always accepted).',
              content: { 'application/json': { schema: single ? { anyOf: [argsForm, single] } : argsForm } },
            },
          }
        : {}),
      responses: {
        '200': {
          description: 'What the helper returned',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { success: { const: true }, data: {} },
                required: ['success'],
              },
            },
          },
        },
        '400': errorResponse('An argument the contract refuses (INVALID_HELPER_ARGUMENT, with `field`)', 'A'),
        '404': errorResponse('No such helper, or nothing with that ID', 'A'),
        '409': errorResponse('A transition the state does not allow (TRANSITION_REFUSED)', 'A'),
      },
    },
  };
}

function webhook(type: string, data: z.ZodMiniType): Json {
  return {
    post: {
      operationId: `webhook.${type}`,
      summary: `The ${type} event`,
      parameters: [
        {
          name: SIGNATURE_HEADER,
          in: 'header',
          required: true,
          description:
            '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 with the webhook secret over `<t>.<raw body>` (spec 6.3); reject beyond 300 s',
          schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
        },
        {
          name: EVENT_ID_HEADER,
          in: 'header',
          required: true,
          description: 'The event ID, the same on every attempt (docs/assumptions.md, "Event ID placement")',
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                event: { const: type },
                timestamp: { type: 'string', format: 'date-time' },
                partnerId: { type: 'string' },
                data: jsonSchema(data, 'output'),
              },
              required: ['id', 'event', 'timestamp', 'partnerId', 'data'],
            },
          },
        },
      },
      responses: {
        '200': { description: 'Received; any 2xx stops the retries (spec 6.4)' },
        '401': {
          description: 'Signature refused; the service retries (1 s, 2 s, 4 s, 8 s) then marks it failed',
        },
      },
    },
  };
}

/**
 * The assumptions table's rows, topic → decision, read from the text of `docs/assumptions.md`.
 * @example
 * parseAssumptions(readFileSync('docs/assumptions.md', 'utf8')).get('Create a user');
 */
export function parseAssumptions(markdown: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of markdown.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const [, topic, decision] = cells;
    if (cells.length < 4 || !topic || !decision || topic === 'Topic' || /^-+$/.test(topic)) continue;
    rows.set(topic, decision);
  }
  return rows;
}

/**
 * Builds the document. Throws when a route has no entry in `operations.ts` or an entry has no route.
 * @example
 * const doc = openApiDocument(parseAssumptions(readFileSync('docs/assumptions.md', 'utf8')));
 */
export function openApiDocument(decisions: Assumptions, version = '0.0.0'): Json {
  const paths: Record<string, Json> = {};
  const seen = new Set<string>();
  for (const route of modules.flatMap((m) => m.routes)) {
    if (!route.path.startsWith('/v2/')) continue;
    const key = `${route.method} ${route.path}`;
    const spec = OPERATIONS[key];
    if (!spec) throw new Error(`mock/openapi/operations.ts has no entry for the route ${key}`);
    seen.add(key);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, spec, decisions) };
  }
  const stale = Object.keys(OPERATIONS).filter((key) => !seen.has(key));
  if (stale.length)
    throw new Error(`mock/openapi/operations.ts names routes that do not exist: ${stale.join(', ')}`);
  const helpers: [string, HelperSpec][] = Object.entries(HELPER_CONTRACT);
  for (const [name, spec] of helpers) {
    if (spec.http !== false) paths[helperPath(name)] = helperOperation(name, spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stablecoin-to-INR Payout Service: partner interface',
      version,
      description:
        'Generated from the inr-payouts schemas and the mock route table. `x-assumption` marks a decision of docs/assumptions.md where the spec is silent; `x-error-identifiers` lists the error codes the spec names for an operation; `x-mock-only` marks the test helpers of the mock server.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: 'http://127.0.0.1:4010', description: 'npx inr-payouts-mock' }],
    tags: [
      { name: 'users' },
      { name: 'account' },
      { name: 'transactions' },
      { name: 'webhooks' },
      { name: 'mock helpers', description: 'Only on the mock server (`/__mock`); no API key.' },
    ],
    paths,
    webhooks: Object.fromEntries(
      Object.entries(WEBHOOK_PAYLOADS).map(([type, data]) => [type, webhook(type, data)]),
    ),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: '`pk_live_...` or `pk_sandbox_...` (spec 5)',
        },
      },
      schemas: {
        ErrorA: jsonSchema(ErrorBodyA, 'output'),
        ErrorB: jsonSchema(ErrorBodyB, 'output'),
        AuthError: { ...jsonSchema(ErrorBodyA, 'output'), required: ['error', 'message'] },
        RateLimitError: jsonSchema(RateLimitErrorBody, 'output'),
        Pagination: jsonSchema(Pagination, 'output'),
      },
    },
  };
}
