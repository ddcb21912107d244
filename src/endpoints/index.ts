// The endpoint table: one row per `/v2` endpoint, keyed by its operation ID (the client method's path:
// `transactions.create` is `client.transactions.create`). Client resources, mock routes, the OpenAPI document,
// overrides, refusals and the ledger all read it; adding an endpoint is one row here plus its resolver.
import { ACCOUNT_CONTRACTS, ACCOUNT_ENDPOINTS } from './account.js';
import type { Endpoint, EndpointContract } from './endpoint.js';
import { KYC_CONTRACTS, KYC_ENDPOINTS } from './kyc.js';
import { TRANSACTION_CONTRACTS, TRANSACTION_ENDPOINTS } from './transactions.js';
import { USER_CONTRACTS, USER_ENDPOINTS } from './users.js';
import { WEBHOOK_CONTRACTS, WEBHOOK_ENDPOINTS } from './webhooks.js';

export type { Endpoint, EndpointContract, PathParams } from './endpoint.js';
export { colonPath, endpointLabel, PATH_PARAM } from './endpoint.js';

/** Every `/v2` endpoint's call, keyed by operation ID. */
export const ENDPOINTS = {
  ...USER_ENDPOINTS,
  ...KYC_ENDPOINTS,
  ...ACCOUNT_ENDPOINTS,
  ...TRANSACTION_ENDPOINTS,
  ...WEBHOOK_ENDPOINTS,
} as const satisfies Record<string, Endpoint>;

/** An operation ID of the table. */
export type OperationId = keyof typeof ENDPOINTS;

// Made on first use: the client, which names its rows by ID, never builds it.
let operationIds: Map<Endpoint, string> | undefined;

/** The operation ID of a row of {@link ENDPOINTS}. */
export function operationIdOf(row: Endpoint): string | undefined {
  operationIds ??= new Map(Object.entries(ENDPOINTS).map(([id, each]) => [each, id]));
  return operationIds.get(row);
}

/**
 * Every `/v2` endpoint's contract, keyed as {@link ENDPOINTS}. Marked pure so a bundle of the client, which never
 * reads it, drops it: the mock shares this module with the client.
 */
export const CONTRACTS: Record<OperationId, EndpointContract> = /* @__PURE__ */ Object.assign(
  {},
  USER_CONTRACTS,
  KYC_CONTRACTS,
  ACCOUNT_CONTRACTS,
  TRANSACTION_CONTRACTS,
  WEBHOOK_CONTRACTS,
);
