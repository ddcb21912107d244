/**
 * The JSON Schema of a helper's HTTP body, for `GET /__mock` and the helpers' OpenAPI document: apart from the
 * contract (helpers.ts), which the in-process mock loads, since zod's JSON Schema code is only the server's.
 */
import * as z from 'zod/mini';
import { type HelperSpec, helperArgs } from './helpers.js';

type JsonSchema = Record<string, unknown>;

function inputSchema(schema: z.ZodMiniType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/**
 * The JSON Schema of a helper's HTTP body, always an object: its one object argument, or for a helper with
 * `field`, an object whose `field` is the first argument and whose other properties are the second's.
 * Undefined for a helper that takes nothing.
 */
export function helperBodySchema(spec: HelperSpec): JsonSchema | undefined {
  const [first, second] = helperArgs(spec).map(inputSchema);
  if (!first) return undefined;
  if (!spec.field) return first;
  const rest = second?.properties;
  return {
    type: 'object',
    properties: { [spec.field]: first, ...(typeof rest === 'object' && rest !== null ? rest : {}) },
    required: [spec.field],
    additionalProperties: false,
  };
}
