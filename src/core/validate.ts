import type * as z from 'zod/mini';
import { ResponseValidationError, ValidationError, type ValidationIssue } from './errors.js';

type ZodIssue = z.core.$ZodIssue;

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** zod/mini ships no message locale; only missing fields and enum values lack the SDK's own messages. */
function describe(issue: ZodIssue, root: unknown): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  const received = valueAt(root, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return received === undefined ? 'is required' : `must be ${issue.expected}, got ${kindOf(received)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `is invalid (${issue.code})`;
  }
}

function toIssues(issues: readonly ZodIssue[], root: unknown, prefix: string): ValidationIssue[] {
  return issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: describe(issue, root),
  }));
}

export function parseRequest<T>(schema: z.ZodMiniType<T>, value: unknown, operation: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(operation, toIssues(result.error.issues, value, ''));
}

export function parseResponse<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
  endpoint: string,
  status: number,
  body: unknown,
  prefix = 'data',
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ResponseValidationError(endpoint, status, toIssues(result.error.issues, value, prefix), body);
}
