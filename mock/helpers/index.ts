/**
 * Every test helper group of a service. Adding a group is a file exporting `xxxHelpers(runtime)` and one
 * line here. Helpers take and return plain data so the standalone server can serve them over HTTP.
 */
import type { MockRuntime } from '../core/runtime.js';
import { accountHelpers } from './accounts.js';
import { clockHelpers } from './clock.js';
import { faultHelpers } from './faults.js';
import { kycHelpers } from './kyc.js';
import { ledgerHelper } from './ledger.js';
import { lifecycleHelpers } from './lifecycle.js';
import { otpHelpers } from './otp.js';
import { userSeedHelpers } from './seed.js';
import { trancheHelpers } from './tranches.js';
import { transactionHelpers } from './transactions.js';
import { verificationHelpers } from './verification.js';
import { webhookHelpers } from './webhooks.js';

/**
 * The helpers of one service.
 * @example
 * const helpers = createHelpers(runtime);
 */
export function createHelpers(rt: MockRuntime) {
  return {
    accounts: accountHelpers(rt),
    clock: clockHelpers(rt),
    faults: faultHelpers(rt),
    otp: otpHelpers(rt),
    verification: verificationHelpers(rt),
    users: userSeedHelpers(rt),
    transactions: transactionHelpers(rt),
    tranches: trancheHelpers(rt),
    webhooks: webhookHelpers(rt),
    ledger: ledgerHelper(rt),
    ...kycHelpers(rt),
    ...lifecycleHelpers(rt),
  };
}

/**
 * The type of `service.helpers`.
 * @example
 * ```ts
 * import { MockHelpers } from 'inr-payouts/mock';
 * function signUp(helpers: MockHelpers) {}
 * ```
 */
export type MockHelpers = ReturnType<typeof createHelpers>;
