/**
 * The OpenAPI 3.1 document of the mock's test helpers (`/__mock`), `openapi.mock.json`: kept apart from the
 * API's `openapi.json` so a contract tool aimed at the API never resets a sandbox. Every helper's body is a
 * JSON object (the helper contract, `mock/contract/helpers.ts`) and every answer is typed
 * (`helper-results.ts`), so a client generated from it needs no cast.
 */
import { ErrorBodyA } from '../../src/schemas/common.js';
import { isPlainObject } from '../../src/shared/plain-object.js';
import {
  type HelperSpec,
  type HttpHelperName,
  helperArgs,
  helperBodySchema,
  helperPath,
  httpHelpers,
} from '../contract/helpers.js';
import { HELPER_RESULTS } from './helper-results.js';
import {
  documentHead,
  EXPLAIN_HEADER_COMPONENT,
  headerRef,
  type Json,
  jsonSchema,
  queryParameters,
  ref,
  successEnvelope,
} from './schema.js';

/** A `200` whose `data` is `data`. */
function success(description: string, data: Json): Json {
  return { description, content: { 'application/json': { schema: successEnvelope(data) } } };
}

/** A `GET` of the server's own, beside the helpers. */
function serverGet(operationId: string, summary: string, description: string, responses: Json): Json {
  return { get: { operationId, summary, description, tags: ['mock'], security: [], responses } };
}

function error(description: string, extra: Json = {}): Json {
  return { description, content: { 'application/json': { schema: ref('HelperError') } }, ...extra };
}

const REFUSALS: Json = {
  '400': error(
    'An argument the contract refuses (`INVALID_HELPER_ARGUMENT`, with `field`), or one the helper refuses (`HELPER_REJECTED`)',
  ),
  '403': error('Not a loopback host (`NOT_LOCAL`), or a request from another web site (`CROSS_SITE`)'),
  '404': error('Nothing with that ID (`No user usr_x ...`)'),
};

function answers(name: HttpHelperName, method: 'get' | 'post'): Json {
  const result = HELPER_RESULTS[name];
  if (!result) throw new Error(`mock/openapi/helper-results.ts has no answer for the helper ${name}`);
  return {
    '200': success('What the helper returned (`null` for nothing)', jsonSchema(result, 'output')),
    ...REFUSALS,
    '409': error('A transition the state does not allow (`TRANSITION_REFUSED`, with `state` and `allowed`)', {
      headers: { 'X-Mock-Explain': headerRef('XMockExplain') },
    }),
    ...(method === 'post'
      ? {
          '413': error('The body is larger than the server takes'),
          '415': error('A body that is not `application/json` (`UNSUPPORTED_MEDIA_TYPE`)'),
        }
      : {}),
  };
}

function helperPathItem(name: HttpHelperName, spec: HelperSpec): Json {
  const body = helperBodySchema(spec);
  const optional = helperArgs(spec).every((arg) => arg._zod.optin === 'optional');
  const common = { summary: spec.summary, tags: [name.split('.')[0] ?? name], security: [] };
  const post = {
    ...common,
    operationId: name,
    description: `Calls \`mock.helpers.${name}\`.${spec.reads ? ' It only reads; `GET` with the fields as the query string does the same.' : ''}`,
    ...(body
      ? {
          requestBody: {
            required: !optional,
            description: 'The argument, a JSON object',
            content: { 'application/json': { schema: body } },
          },
        }
      : {}),
    responses: answers(name, 'post'),
  };
  const get = spec.reads
    ? {
        ...common,
        operationId: `${name}.query`,
        description: `Calls \`mock.helpers.${name}\` with the query string as its argument; never changes state.`,
        // `GET` with the body's fields as the query string: for the helpers that only read.
        parameters: queryParameters(body, (field) => `The argument's \`${field}\``),
        responses: answers(name, 'get'),
      }
    : undefined;
  return { ...(get ? { get } : {}), post };
}

const DESCRIPTION = [
  "The test helpers of the inr-payouts mock server (`npx inr-payouts-mock`): they move the mock's virtual clock, read OTPs, inject faults, complete KYC sessions and payouts.",
  'Only the mock has them: everything here is `x-mock-only`, and nothing here exists on the service. The API itself is described in `openapi.json`; what the mock adds to it is listed in [docs/mock-only.md](https://github.com/inr-payouts/inr-payouts/blob/main/docs/mock-only.md).',
  'They answer only on a loopback host and need no API key. Each body is a JSON object; each answer is `{ "success": true, "data": ... }`, errors are in the API\'s shape A.',
].join(' ');

/** Builds the helpers' document. */
export function mockOpenApiDocument(version = '0.0.0'): Json {
  const paths: Record<string, Json> = {
    '/__mock': serverGet(
      'listHelpers',
      'Every helper there is, with the JSON Schema of its arguments and body',
      'Lists what the server serves, by group, and describes each helper.',
      {
        '200': success('The helpers', {
          type: 'object',
          properties: {
            helpers: {
              type: 'object',
              description:
                "Group → action names of the helpers served over HTTP; `''` holds the top-level helpers",
              additionalProperties: { type: 'array', items: { type: 'string' } },
            },
            described: { type: 'array', items: ref('HelperDescription') },
          },
          required: ['helpers', 'described'],
        }),
        '403': REFUSALS['403'],
      },
    ),
    '/__mock/health': serverGet(
      'health',
      'Whether the server serves: for a container health check or a wait strategy',
      'Answers 200 once the server serves, 503 while a replay runs; reads and changes nothing, and is neither journalled nor recorded. Not a helper: it answers under any host.',
      {
        '200': success('Serving', {
          type: 'object',
          properties: { status: { type: 'string', const: 'serving' } },
          required: ['status'],
        }),
        '503': error('Not serving: replaying a bundle (`REPLAY_IN_PROGRESS`, with `Retry-After`)'),
      },
    ),
  };
  const helpers = httpHelpers();
  for (const [name, spec] of helpers) paths[helperPath(name)] = helperPathItem(name, spec);
  const errorA = jsonSchema(ErrorBodyA, 'output');
  const tags = [...new Set(helpers.map(([n]) => n.split('.')[0] ?? n))];
  return {
    ...documentHead('inr-payouts mock server: test helpers', version, DESCRIPTION),
    security: [],
    'x-mock-only': true,
    tags: [
      { name: 'mock', description: 'What the helpers are' },
      ...tags.map((name) => ({ name, description: `The \`${name}\` helpers` })),
    ],
    paths,
    components: {
      schemas: {
        HelperError: {
          ...errorA,
          properties: {
            ...(isPlainObject(errorA.properties) ? errorA.properties : {}),
            field: { type: 'string', description: 'The argument field refused' },
            state: { type: 'string', description: 'The state that refused the transition' },
            allowed: { type: 'array', items: { type: 'string' }, description: 'What that state allows' },
            allow: { type: 'string', description: 'The methods the helper takes (405)' },
          },
        },
        HelperDescription: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            path: { type: 'string' },
            summary: { type: 'string' },
            reads: { type: 'boolean' },
            arguments: { type: 'array', items: { type: 'object' } },
            body: { type: 'object' },
          },
          required: ['name', 'path', 'summary', 'reads', 'arguments'],
        },
      },
      headers: { XMockExplain: EXPLAIN_HEADER_COMPONENT },
    },
  };
}
