/**
 * Request validation with the shared schemas of `src/schemas/`, answering 400 in the endpoint's shape
 * (docs/assumptions.md, "Request validation").
 */
import * as z from 'zod/mini';
import { type ErrorShape, MockApiError } from '../engine/errors.js';
import type { ParsedBody } from '../engine/exchange.js';
import { TOO_DEEP } from '../engine/json-depth.js';

/** One failed field, as in `details`. */
export interface FieldIssue {
  field: string;
  message: string;
}

function toIssues(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join('.') : '(body)',
    message: issue.path.length ? issue.message : `the request body must be a JSON object (${issue.message})`,
  }));
}

function badRequest(shape: ErrorShape, issues: FieldIssue[], code = 'VALIDATION_ERROR'): MockApiError {
  const message = `Invalid request: ${issues.map((i) => i.message).join('; ')}`;
  return new MockApiError(
    400,
    shape === 'B'
      ? { error: 'Validation Error', message, details: issues }
      : { error: 'Bad Request', message, code, details: issues },
  );
}

/**
 * Validates a JSON body as parsed once by the request's context; throws a 400 `MockApiError`. A schema issue that
 * carries `params.code` (`AMOUNT_TOO_LOW`) gives its code to the answer in shape A.
 */
export function validateParsed<Schema extends z.ZodMiniType>(
  schema: Schema,
  parsed: ParsedBody,
  shape: ErrorShape,
): z.infer<Schema> {
  if (parsed === undefined)
    throw badRequest(shape, [{ field: '(body)', message: 'the request body must be valid JSON' }]);
  if (parsed.tooDeep) throw badRequest(shape, [{ field: '(body)', message: TOO_DEEP }]);
  const { value } = parsed;
  // Every request body of the interface is a JSON object; anything else is refused before the schema runs.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(shape, [{ field: '(body)', message: 'the request body must be a JSON object' }]);
  }
  return validate(schema, value, shape);
}

/**
 * Validates query parameters with a shared schema. Query values arrive as text, so a field the schema wants as a
 * number and that reads as one is taken as a number; every other value stays the text sent.
 */
export function validateQuery<Schema extends z.ZodMiniType>(
  schema: Schema,
  query: Record<string, string>,
  shape: ErrorShape,
): z.infer<Schema> {
  const first = z.safeParse(schema, query);
  if (first.success) return first.data;
  const value: Record<string, string | number> = { ...query };
  for (const issue of first.error.issues) {
    const [name] = issue.path;
    const text = typeof name === 'string' ? query[name] : undefined;
    if (
      issue.code === 'invalid_type' &&
      issue.expected === 'number' &&
      text &&
      /^-?\d+(\.\d+)?$/.test(text)
    ) {
      value[name as string] = Number(text);
    }
  }
  return validate(schema, value, shape);
}

function validate<Schema extends z.ZodMiniType>(
  schema: Schema,
  value: unknown,
  shape: ErrorShape,
): z.infer<Schema> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const coded = result.error.issues.find(
    (issue): issue is z.core.$ZodIssueCustom =>
      issue.code === 'custom' && typeof issue.params?.code === 'string',
  );
  throw badRequest(shape, toIssues(result.error.issues), coded?.params?.code);
}
