/**
 * The fields the mock sends beyond what the spec shows, in one place: the OpenAPI generator declares each
 * (marked `x-mock-only: true`), the strict profile (`createMockService({ profile: 'strict' })`) leaves each
 * out, and `docs/mock-only.md` says why for each (a test keeps the table and this list together).
 */
import type { OperationId } from '../../src/endpoints/index.js';
import { attributionStatuses } from '../../src/schemas/transactions.js';
import { objectOf } from '../state/records.js';

/**
 * `default` answers with the mock's additions (explanations, failure reasons, attribution status);
 * `strict` answers exactly what the spec shows, so a partner's suite proves it does not depend on them.
 */
export type MockProfile = 'default' | 'strict';

/** The profiles, for option checks and the CLI. */
export const MOCK_PROFILES: readonly MockProfile[] = ['default', 'strict'];

/**
 * One field the mock adds to a success body: where it sits in `data` (dot-separated), its JSON Schema and why.
 */
export interface MockOnlyField {
  readonly path: string;
  readonly schema: Readonly<Record<string, unknown>>;
  readonly why: string;
}

const failure = (leg: string): MockOnlyField[] => [
  {
    path: `${leg}.failureCode`,
    schema: { type: 'string' },
    why: 'Names why the transaction ended failed or cancelled (QUOTE_EXPIRED, PAYOUT_FAILED …); spec 2.4 shows no reason',
  },
  {
    path: `${leg}.failureReason`,
    schema: { type: 'string' },
    why: 'The reason in words, beside failureCode',
  },
];

const TRANSACTION_FIELDS: readonly MockOnlyField[] = [
  {
    path: 'transaction.updatedAt',
    schema: { type: 'string', format: 'date-time' },
    why: 'When the status last moved, as the activity item (2.6) has it; spec 2.4 does not show it on the transaction',
  },
  ...failure('transaction'),
  {
    path: 'deposit.requiredConfirmations',
    schema: { type: 'integer' },
    why: 'The confirmations the network needs before the deposit is confirmed, so a test can tell how far it is; spec 2.4 shows only `confirmations`',
  },
  ...failure('payout'),
  {
    path: 'payout.attributionStatus',
    schema: { anyOf: [{ type: 'string', enum: [...attributionStatuses] }, { type: 'string' }] },
    why: 'Says whether a rate attribution is still coming (`pending`), came (`attributed`) or never will (`none`: not pool-funded); the spec leaves a client to wait for fields that may never appear',
  },
];

/** The mock-only fields of each endpoint's success `data`, keyed by operation ID. */
export const MOCK_ONLY_FIELDS: Readonly<Partial<Record<OperationId, readonly MockOnlyField[]>>> = {
  'transactions.retrieve': TRANSACTION_FIELDS,
};

/** A header the mock adds beyond the spec: its name, on which answers, and why. */
export interface MockOnlyHeader {
  readonly name: string;
  /** Whether an answer of `status` carries it only because the mock adds it. */
  readonly addedOn: (status: number) => boolean;
  readonly why: string;
}

/** The rate-limit window, which spec 8 shows on a 429 only and the mock sends on every answer once the key is known. */
export const MOCK_ONLY_HEADERS: readonly MockOnlyHeader[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
].map((name) => ({
  name,
  addedOn: (status: number) => status !== 429,
  why: 'spec 8 shows it on a 429 only; the mock sends it on every answer once the key is known',
}));

/** `data` without the endpoint's mock-only fields (the strict profile's answer). Changes nothing in place. */
export function withoutMockOnly(operationId: OperationId | undefined, data: unknown): unknown {
  const fields = operationId && MOCK_ONLY_FIELDS[operationId];
  const object = objectOf(data);
  if (!fields || !object) return data;
  const out: Record<string, unknown> = { ...object };
  for (const { path } of fields) {
    const [outer = '', inner] = path.split('.');
    if (inner === undefined) {
      delete out[outer];
      continue;
    }
    const parent = objectOf(out[outer]);
    if (!parent || !(inner in parent)) continue;
    const { [inner]: _dropped, ...kept } = parent;
    out[outer] = kept;
  }
  return out;
}
