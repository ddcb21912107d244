/**
 * The OpenAPI 3.1 document of the partner interface, generated, never written by hand: paths from the mock's
 * route table (`mock/routes/`), each route's row of the endpoint table (`src/endpoints/`) for its facts and
 * schemas, the refinement rules of `rules.ts`, the mock-only marks of
 * `mock/contract/mock-only.ts` and the ten webhook payloads (`mock/contract/webhook-payloads.ts`). The test helpers have a
 * document of their own (`mock-document.ts`), so a contract tool aimed at the API never resets a sandbox.
 * `npm run build` writes both; a test compares the committed files with a fresh generation.
 */
import type * as z from 'zod/mini';
import {
  CONTRACTS,
  ENDPOINTS,
  type Endpoint,
  type OperationId,
  PATH_PARAM,
} from '../../src/endpoints/index.js';
import { ErrorBodyA, ErrorBodyB, RateLimitErrorBody } from '../../src/schemas/common.js';
import { Pagination } from '../../src/schemas/webhooks.js';
import { isPlainObject } from '../../src/shared/plain-object.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../src/webhooks/common.js';
import { MOCK_ONLY_FIELDS, type MockOnlyField } from '../contract/mock-only.js';
import { WEBHOOK_PAYLOADS } from '../contract/webhook-payloads.js';
import type { RouteDefinition } from '../engine/route.js';
import { modules } from '../routes/index.js';
import { UPLOADS_PATH } from '../routes/kyc/document.js';
import { REQUEST_RULES, type Rule } from './rules.js';
import {
  documentHead,
  EXPLAIN_HEADER_COMPONENT,
  envelopeSchema,
  headerRef,
  type Json,
  jsonSchema,
  queryParameters,
  ref,
  successEnvelope,
} from './schema.js';

/** The decisions of `docs/assumptions.md`, topic → decision, that the document marks with `x-assumption`. */
export type Assumptions = ReadonlyMap<string, string>;

/** The schema node at the field path `keys` of `schema`, through `properties`. */
function nodeAt(schema: Json, keys: readonly string[]): unknown {
  let node: unknown = schema;
  for (const key of keys)
    node = isPlainObject(node) && isPlainObject(node.properties) ? node.properties[key] : undefined;
  return node;
}

/** Merges each rule into the schema node at its field path (`''` the object itself). */
function withRules(schema: Json, rules: Record<string, Rule> | undefined): Json {
  for (const [path, rule] of Object.entries(rules ?? {})) {
    const node = nodeAt(schema, path ? path.split('.') : []);
    if (!isPlainObject(node)) throw new Error(`rules.ts names ${path}, which the schema does not have`);
    Object.assign(node, rule);
  }
  return schema;
}

/** Declares each mock-only field in the schema of `data`, marked `x-mock-only` with why. */
function withMockOnly(schema: Json, fields: readonly MockOnlyField[] | undefined): Json {
  for (const { path, schema: field, why } of fields ?? []) {
    const keys = path.split('.');
    const name = keys.pop() ?? '';
    let node = nodeAt(schema, keys);
    // A nullable object is `anyOf: [object, null]`; the field goes on the object.
    if (isPlainObject(node) && Array.isArray(node.anyOf))
      node = node.anyOf.find((n) => isPlainObject(n) && isPlainObject(n.properties));
    if (!isPlainObject(node) || !isPlainObject(node.properties))
      throw new Error(`mock/contract/mock-only.ts names ${path}, which the schema does not have`);
    node.properties[name] = { ...field, description: `Mock only: ${why}.`, 'x-mock-only': true };
  }
  return schema;
}

const RATE_HEADERS: Record<string, string> = {
  'X-RateLimit-Limit': 'Requests allowed per minute',
  'X-RateLimit-Remaining': 'Requests left in the window',
  'X-RateLimit-Reset': 'Unix time (seconds) the window resets',
};

/**
 * Headers any answer but a 429 can carry: the rate-limit window, which spec 8 shows on a 429 only and the
 * mock sends on every answer once the API key is known (not on a 401, nor on an injected fault), and the mock's
 * explanation. Both are the mock's own; the strict profile sends neither.
 */
const ANSWER_HEADERS: Json = {
  ...Object.fromEntries(
    Object.entries(RATE_HEADERS).map(([name, description]) => [
      name,
      {
        description: `Mock only outside a 429: ${description}, on every answer once the API key is known`,
        schema: { type: 'integer' },
        'x-mock-only': true,
      },
    ]),
  ),
  'X-Mock-Explain': headerRef('XMockExplain'),
};

/** The 429's headers, as spec 8 shows them (absent on a 429 an injected fault gave). */
const RATE_LIMITED_HEADERS: Json = {
  ...Object.fromEntries(Object.keys(RATE_HEADERS).map((name) => [name, headerRef(name.replaceAll('-', ''))])),
  'X-Mock-Explain': headerRef('XMockExplain'),
};

/** The error bodies of each shape; `auth` is the 401 and 403, which spec 5.4 and 5.5 give as `error` and `message` only. */
const ERROR_SCHEMAS = {
  A: ref('ErrorA'),
  // Shape B endpoints answer their own errors in B, and the pipeline's (auth, rate limit) in A (spec 7.1).
  B: { anyOf: [ref('ErrorB'), ref('ErrorA')] },
  auth: ref('AuthError'),
};

function errorResponse(description: string, shape: keyof typeof ERROR_SCHEMAS, extra: Json = {}): Json {
  const schema = ERROR_SCHEMAS[shape];
  return { description, headers: ANSWER_HEADERS, content: { 'application/json': { schema } }, ...extra };
}

/** The statuses only a fault injected through the helpers (`faults.inject`, `faults.chaos`) answers: mock-only. */
const FAULT_ANSWERS = {
  '502': 'Bad gateway: only a fault injected through the mock helpers answers it',
  '504': 'Gateway time-out: only a fault injected through the mock helpers answers it',
  '4XX': 'Any other client error status a fault injected through the mock helpers chose',
  '5XX': 'Any other server error status a fault injected through the mock helpers chose',
};

function assumptionsOf(topics: readonly string[] | undefined, decisions: Assumptions): Json[] | undefined {
  if (!topics?.length) return undefined;
  return topics.map((topic) => {
    const decision = decisions.get(topic);
    if (decision === undefined) throw new Error(`docs/assumptions.md has no topic "${topic}"`);
    return { topic, decision };
  });
}

function operation(operationId: OperationId, row: Endpoint, decisions: Assumptions): Json {
  const contract = CONTRACTS[operationId];
  const shape = contract.alsoShapeB ? 'B' : (row.shape ?? 'A');
  const idempotent = row.method !== 'GET';
  const rules = REQUEST_RULES[operationId];
  const pathParams = [...row.path.matchAll(PATH_PARAM)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1 },
  }));
  const query = row.query ? withRules(jsonSchema(row.query, 'input'), rules?.query) : undefined;
  const idempotency = idempotent
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
  // The one sibling of `data` an envelope has is the webhook list's `pagination` (spec 4.12).
  const siblings = row.envelope ? jsonSchema(row.envelope, 'output').properties : undefined;
  const paginated = isPlainObject(siblings) && 'pagination' in siblings;
  const envelope = successEnvelope(
    withMockOnly(jsonSchema(row.data, 'output'), MOCK_ONLY_FIELDS[operationId]),
    { message: { type: 'string' }, ...(paginated ? { pagination: ref('Pagination') } : {}) },
    paginated ? ['pagination'] : [],
  );
  const content = { 'application/json': { schema: envelope } };
  const status = String(row.status ?? 200);
  // An idempotent replay answers 200 with the first answer's body and `Idempotent-Replayed: true` (spec 8).
  const replayed = idempotent ? { 'Idempotent-Replayed': headerRef('IdempotentReplayed') } : {};
  const success = {
    description: status === '201' ? 'Created' : 'Success',
    headers: { ...ANSWER_HEADERS, ...(status === '200' ? replayed : {}) },
    content,
  };
  return {
    operationId,
    summary: contract.summary,
    description: `Spec section ${contract.section}.`,
    tags: [row.path.split('/')[2] ?? 'v2'],
    parameters: [...pathParams, ...queryParameters(query), ...idempotency],
    ...(row.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: withRules(jsonSchema(row.body, 'input'), rules?.body) },
            },
          },
        }
      : {}),
    responses: {
      [status]: success,
      ...(status === '201'
        ? {
            '200': {
              description: 'Idempotent replay: the first answer again',
              headers: { ...ANSWER_HEADERS, ...replayed },
              content,
            },
          }
        : {}),
      '400': errorResponse(
        shape === 'A'
          ? 'Invalid parameters: shape A, `code: VALIDATION_ERROR` with `details`'
          : 'Invalid parameters: shape B, `error: Validation Error` with `details`',
        shape,
      ),
      '401': errorResponse('Missing or invalid API key (spec 5.4)', 'auth'),
      '403': errorResponse('Address not on the allow-list (spec 5.5)', 'auth'),
      '404': errorResponse('Not found', shape),
      '409': errorResponse('Conflict (IDEMPOTENCY_CONFLICT among others)', shape),
      ...(row.body ? { '413': errorResponse('The body is larger than the server takes', 'A') } : {}),
      '422': errorResponse('Refused by a business rule', shape),
      '429': {
        description: 'Rate limited',
        headers: RATE_LIMITED_HEADERS,
        content: { 'application/json': { schema: { anyOf: [ref('RateLimitError'), ref('ErrorB')] } } },
      },
      '500': errorResponse('Internal error', shape),
      '503': errorResponse('Service unavailable', shape),
      // Integer keys serialise in numeric order, so 502 and 504 still come between 500 and 4XX.
      ...Object.fromEntries(
        Object.entries(FAULT_ANSWERS).map(([status, description]) => [
          status,
          errorResponse(description, shape, { 'x-mock-only': true }),
        ]),
      ),
    },
    security: [{ bearerAuth: [] }],
    'x-error-identifiers': contract.errors,
    // Left out of the JSON where the operation rests on no assumption.
    'x-assumption': assumptionsOf(contract.assumptions, decisions),
  };
}

/**
 * The presigned upload of spec 4.10: the `uploadUrl` that `upload-url` answers points here on the mock. The
 * service's own URL points at its storage; a partner always PUTs to `uploadUrl` exactly as given.
 */
function uploadOperation(): Json {
  const text = (description: string): Json => ({
    description,
    content: { 'text/plain': { schema: { type: 'string' } } },
  });
  return {
    put: {
      operationId: 'kyc.document.upload',
      summary: 'Upload the document to the presigned URL',
      description:
        'Spec section 4.10, step 2. The mock serves the presigned URL itself; send the file with the `Content-Type` that `upload-url` answered in `headers`, within `expiresIn` seconds, then confirm it.',
      tags: ['users'],
      'x-mock-only': true,
      security: [],
      parameters: [
        {
          name: 's3Key',
          in: 'path',
          required: true,
          description: 'The `s3Key` of the upload',
          schema: { type: 'string', minLength: 1 },
        },
        ...['expires', 'signature'].map((name) => ({
          name,
          in: 'query',
          required: false,
          description: 'Part of the presigned URL',
          schema: { type: 'string' },
        })),
      ],
      requestBody: {
        required: true,
        description: 'The file, at most 10 MB, with the signed `Content-Type`',
        content: {
          'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
          '*/*': { schema: { type: 'string', format: 'binary' } },
        },
      },
      responses: {
        '200': {
          description: 'Stored',
          headers: { ETag: { description: 'The stored object', schema: { type: 'string' } } },
        },
        '400': text('The size is not the one declared'),
        '403': text('The URL expired, or the `Content-Type` is not the signed one'),
        '404': text('No upload URL was issued for this key'),
        '405': text('The upload URL takes PUT only'),
        '409': text('This upload URL was already used'),
        '413': errorResponse('The body is larger than the server takes', 'A'),
      },
    },
  };
}

function webhook(type: string, data: z.ZodMiniType): Json {
  return {
    post: {
      operationId: `webhook.${type}`,
      summary: `The ${type} event`,
      description:
        "Sent by the service to the account's webhook URL (spec 6). Verify the signature over the raw body before trusting it; `inr-payouts/webhooks` does.",
      tags: ['webhooks'],
      // The service signs the request; the receiver needs no API key.
      security: [],
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
        description: 'The event envelope (spec 6.1)',
        content: {
          'application/json': {
            schema: envelopeSchema({ const: type }, jsonSchema(data, 'output')),
          },
        },
      },
      responses: {
        '200': { description: 'Received; any 2xx stops the retries (spec 6.4)' },
        '401': {
          description: 'Signature refused; the service retries (1 s, 2 s, 4 s, 8 s) then marks it failed',
        },
        '5XX': { description: 'Not received; the service retries as for a 401' },
      },
    },
  };
}

const INFO_DESCRIPTION = [
  'Generated from the inr-payouts schemas and the mock route table.',
  '`x-assumption` marks a decision of docs/assumptions.md where the spec is silent; `x-error-identifiers` lists the error codes the spec names for an operation.',
  '`x-mock-only: true` marks what the mock adds beyond the spec (fields, headers, statuses, routes): the table of [docs/mock-only.md](https://github.com/inr-payouts/inr-payouts/blob/main/docs/mock-only.md) says why for each, and `--profile strict` turns them off.',
  'The test helpers (`/__mock`) are described in a document of their own, `openapi.mock.json`.',
].join(' ');

/** The assumptions table's rows, topic → decision, read from the text of `docs/assumptions.md`. */
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
 * Builds the document from `routes` (the service's), in the order they are served. Throws when a `/v2` route
 * has no row in `src/endpoints/`, or a row has no route or two.
 */
export function openApiDocument(
  decisions: Assumptions,
  version = '0.0.0',
  routes: readonly RouteDefinition[] = modules.flatMap((m) => m.routes),
): Json {
  const paths: Record<string, Json> = {};
  const seen = new Set<string>();
  for (const route of routes) {
    if (!route.path.startsWith('/v2/')) continue;
    const { endpoint: row, operationId } = route;
    if (!row || !operationId)
      throw new Error(`The route ${route.method} ${route.path} has no row in src/endpoints/`);
    if (seen.has(operationId)) throw new Error(`Two routes serve the row ${operationId}`);
    seen.add(operationId);
    paths[row.path] = {
      ...paths[row.path],
      [row.method.toLowerCase()]: operation(operationId, row, decisions),
    };
  }
  const missing = Object.keys(ENDPOINTS).filter((id) => !seen.has(id));
  if (missing.length) throw new Error(`No route serves the rows ${missing.join(', ')} of src/endpoints/`);
  paths[`${UPLOADS_PATH}/{s3Key}`] = uploadOperation();
  return {
    ...documentHead('Stablecoin-to-INR Payout Service: partner interface', version, INFO_DESCRIPTION),
    tags: [
      { name: 'users', description: 'Users, their verification and KYC (spec 2.3, 2.7, 2.8, 4.3 to 4.11)' },
      {
        name: 'account',
        description: 'The partner account, its credit and activity (spec 2.1, 2.5, 2.6, 4.1)',
      },
      { name: 'transactions', description: 'Standard and prefunded transactions (spec 2.4, 3.1, 4.2)' },
      { name: 'webhooks', description: 'Webhook event records, retries and payloads (spec 6, 4.12)' },
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
      headers: {
        ...Object.fromEntries(
          Object.entries(RATE_HEADERS).map(([name, description]) => [
            name.replaceAll('-', ''),
            {
              description: `${description} (spec 8)`,
              schema: { type: 'integer' },
            },
          ]),
        ),
        IdempotentReplayed: {
          description: '`true` on an answer replayed for a repeated `Idempotency-Key` (spec 8)',
          schema: { type: 'string', enum: ['true'] },
        },
        XMockExplain: EXPLAIN_HEADER_COMPONENT,
      },
    },
  };
}
