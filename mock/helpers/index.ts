/**
 * Every test helper group of a service. Adding a group is a file exporting `xxxHelpers(mock)` and one
 * line here. Helpers take and return plain data so the standalone server can serve them over HTTP.
 */

import { HELPER_CONTRACT, type HelperSpec } from '../contract/helpers.js';
import type { ServiceInternals } from '../engine/internals.js';
import type { JournalHelper } from '../engine/journal.js';
import { accountHelpers } from './accounts.js';
import { bundleHelper } from './bundle.js';
import { clockHelpers } from './clock.js';
import { faultHelpers } from './faults.js';
import { journalHelper } from './journal.js';
import { kycHelpers } from './kyc.js';
import { ledgerHelper } from './ledger.js';
import { lifecycleHelpers } from './lifecycle.js';
import { otpHelpers } from './otp.js';
import { userSeedHelpers } from './seed.js';
import { trancheHelpers } from './tranches.js';
import { transactionHelpers } from './transactions.js';
import { withContract } from './validate.js';
import { verificationHelpers } from './verification.js';
import { webhookHelpers } from './webhooks.js';

/** The helpers of one service. */
export function createHelpers(mock: ServiceInternals) {
  const groups = {
    accounts: accountHelpers(mock),
    clock: clockHelpers(mock),
    faults: faultHelpers(mock),
    otp: otpHelpers(mock),
    verification: verificationHelpers(mock),
    users: userSeedHelpers(mock),
    transactions: transactionHelpers(mock),
    tranches: trancheHelpers(mock),
    webhooks: webhookHelpers(mock),
    ledger: ledgerHelper(mock),
    journal: journalHelper(mock),
    bundle: bundleHelper(mock),
    ...kycHelpers(mock),
    ...lifecycleHelpers(mock),
  };
  // Every call but reading the journal or the replay bundle goes in the journal, refused or not.
  return withContract(groups, HELPER_CONTRACT, (name) =>
    name === 'journal' || name === 'bundle'
      ? undefined
      : mock.journal.record<JournalHelper>(mock.state, { type: 'helper', name, refused: false }),
  );
}

/** The type of `service.helpers`. */
export type MockHelpers = ReturnType<typeof createHelpers>;

type Callable = (...args: never[]) => unknown;

/** Every helper's name, `group.action` or a top-level name. */
export type HelperNameOf<H> = {
  [K in keyof H & string]: H[K] extends Callable
    ? K
    : { [A in keyof H[K] & string]: H[K][A] extends Callable ? `${K}.${A}` : never }[keyof H[K] & string];
}[keyof H & string];

// A helper without an entry in HELPER_CONTRACT stops the build here.
const contractCoversEveryHelper: Record<HelperNameOf<MockHelpers>, HelperSpec> = HELPER_CONTRACT;
void contractCoversEveryHelper;
