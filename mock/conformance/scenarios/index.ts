/**
 * The whole suite, in the order it runs: one file per area of the spec. Adding an area is a file and a line here.
 */
import type { Scenario } from '../types.js';
import { ACCOUNT_SCENARIOS } from './account.js';
import { AUTH_SCENARIOS } from './auth.js';
import { IDEMPOTENCY_SCENARIOS } from './idempotency.js';
import { KYC_SCENARIOS } from './kyc.js';
import { LIFECYCLE_SCENARIOS } from './lifecycles.js';
import { LIMIT_SCENARIOS } from './limits.js';
import { TRANSACTION_SCENARIOS } from './transactions.js';
import { VALIDATION_SCENARIOS } from './validation.js';
import { WEBHOOK_SCENARIOS } from './webhooks.js';

/** Every scenario of the conformance suite. */
export const SCENARIOS: readonly Scenario[] = [
  ...AUTH_SCENARIOS,
  ...ACCOUNT_SCENARIOS,
  ...VALIDATION_SCENARIOS,
  ...IDEMPOTENCY_SCENARIOS,
  ...LIMIT_SCENARIOS,
  ...KYC_SCENARIOS,
  ...TRANSACTION_SCENARIOS,
  ...WEBHOOK_SCENARIOS,
  ...LIFECYCLE_SCENARIOS,
];
