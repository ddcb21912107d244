/**
 * What both OpenAPI documents (the API's `openapi.json`, the helpers' `openapi.mock.json`) build their parts
 * from: JSON Schema from the shared zod schemas (open enums published with their known values), references
 * and the error answers in the spec's shape A.
 */
import * as z from 'zod/mini';
import { openEnumValues } from '../../src/internal/open-enums.js';
import { isPlainObject } from '../../src/shared/plain-object.js';

/** A JSON value of the document. */
export type Json = Record<string, unknown>;

/**
 * The JSON Schema of a zod schema, without its `$schema` (the document names the dialect once). An open enum
 * (`openEnum`) becomes `anyOf` its known values and any string: generators offer the values, and a value the
 * service adds later still validates. With `closed`, it becomes its known values only: the contract that
 * conformance checks an answer against, where a new value is a difference to review.
 */
export function jsonSchema(
  schema: z.ZodMiniType,
  io: 'input' | 'output',
  enums: 'open' | 'closed' = 'open',
): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: node }) => {
      const values = openEnumValues.get(zodSchema);
      if (!values) return;
      const known = { type: 'string', enum: [...values] };
      if (enums === 'closed') {
        Object.assign(node, known);
        return;
      }
      const open = node as Json;
      delete open.type;
      open.anyOf = [known, { type: 'string', description: 'A value added after this document' }];
    },
  }) as Json;
  return rest;
}

/**
 * A webhook delivery's body (spec 6.1, with the event ID of docs/assumptions.md's "Event ID placement"): `event`
 * and `data` are the schemas of one event type's, or any.
 */
export function envelopeSchema(event: Json, data: Json): Json {
  return {
    type: 'object',
    properties: {
      id: { type: 'string' },
      event,
      timestamp: { type: 'string', format: 'date-time' },
      partnerId: { type: 'string' },
      data,
    },
    required: ['id', 'event', 'timestamp', 'partnerId', 'data'],
  };
}

/** The success envelope `{ success: true, data }`, with `more` fields beside `data` and those of them required. */
export function successEnvelope(data: Json, more: Json = {}, required: readonly string[] = []): Json {
  return {
    type: 'object',
    properties: { success: { const: true }, data, ...more },
    required: ['success', 'data', ...required],
  };
}

/** An object schema's fields as query parameters, each with `describe`'s description when given. */
export function queryParameters(object: Json | undefined, describe?: (name: string) => string): Json[] {
  const properties = isPlainObject(object?.properties) ? object.properties : {};
  const required = Array.isArray(object?.required) ? object.required : [];
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    ...(describe ? { description: describe(name) } : {}),
    schema,
  }));
}

/** A reference to a schema of `components.schemas`. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** A reference to a header of `components.headers`. */
export const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

/** The explanation header, on every answer the mock can explain (mock-only). */
export const EXPLAIN_HEADER_COMPONENT: Json = {
  description:
    "The mock's own: one line saying why it refused a request, or which sandbox value chose its answer (`RULE: what happened (spec S). Change: ...`). The service does not send it.",
  schema: { type: 'string' },
  'x-mock-only': true,
};

/**
 * What both documents open with: the version, `info` (licence, contact), the JSON Schema dialect and the mock
 * server's default address.
 */
export function documentHead(title: string, version: string, description: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title,
      version,
      description,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'inr-payouts', url: 'https://github.com/inr-payouts/inr-payouts' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: 'http://127.0.0.1:4010', description: 'npx inr-payouts-mock' }],
  };
}
