/**
 * What the mock adds beyond the spec (the contract's `x-mock-only` marks, from `mock/contract/mock-only.ts`):
 * a target that leaves one out keeps the spec, so it is no difference; the report lists it once, as the
 * mock's own.
 */
import { endpointLabel, type OperationId, operationIdOf } from '../../src/endpoints/index.js';
import { MOCK_ONLY_FIELDS, MOCK_ONLY_HEADERS } from '../contract/mock-only.js';
import { endpointOf } from './contract.js';

/**
 * The mock-only field at `path` of an answer body (`data.transaction.updatedAt`) to `METHOD path`, named as the
 * report lists it; undefined when the contract promises the field.
 */
export function mockOwnField(method: string, requestPath: string, path: string): string | undefined {
  const row = endpointOf(method, requestPath);
  const id = row && (operationIdOf(row) as OperationId | undefined);
  const field = id && MOCK_ONLY_FIELDS[id]?.find((f) => path === `data.${f.path}`);
  return row && field ? `\`${field.path}\` in ${endpointLabel(row)}: ${field.why}` : undefined;
}

/** The mock-only header `name` (lower-case) on an answer of `status`, named as the report lists it. */
export function mockOwnHeader(name: string, status: number): string | undefined {
  const header = MOCK_ONLY_HEADERS.find((h) => h.name.toLowerCase() === name && h.addedOn(status));
  return header ? `\`${header.name}\` header: ${header.why}` : undefined;
}
