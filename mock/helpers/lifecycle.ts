/**
 * Reset, seed fixtures, snapshot and restore. Snapshots are plain JSON data, so they can be written to a
 * file and read back (the standalone server's persistence).
 */

import type { User } from '../../src/schemas/users.js';
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { initialState } from '../operations/accounts.js';
import { type NewUser, registerUser, userData } from '../operations/users.js';
import { cloneState } from '../state/keyed-collections.js';
import type { MockState } from '../state/mock-state.js';
import { checkState, InvalidStateError } from '../state/state-schema.js';
import { accountOf } from './lookup.js';

/** Fixtures to load. */
export interface SeedData {
  /** The account they belong to; default the service's account. */
  accountId?: string;
  users?: NewUser[];
}

export function lifecycleHelpers(mock: ServiceInternals) {
  return {
    /**
     * Back to the state the service started in, made again from its options: it keeps the seed (unless a new
     * one is given), the start time (the clock goes back to it), the default account as `account` describes it
     * (a sandbox key, webhook secret and webhook URL given there; the server's `--sandbox-key`,
     * `--webhook-secret`, `--webhook-url`), the `chaos` option begun again, the profile and budgets. It clears
     * the rest of the state: users, KYC, transactions, events and deliveries, other accounts, settings changed
     * by `accounts.update`, faults and chaos started by a helper, idempotency records, rate-limit windows,
     * timers. Keys and the secret not given come from the seed, so a new seed changes them. The journal,
     * overrides and `webhooks.useFetch` outlive it.
     * @example
     * ```ts
     * mock.helpers.reset();
     * ```
     */
    reset({ seed }: { seed?: string | number } = {}): void {
      mock.state = initialState(seed === undefined ? mock.options : { ...mock.options, seed: String(seed) });
    },
    /**
     * Loads fixtures directly into state (no webhook events, no rate limit); returns what was created.
     * @example
     * ```ts
     * const { users: [asha] } = mock.helpers.seed({ users: [{ mobile: '9876543210' }] });
     * ```
     */
    seed({ accountId = mock.state.accounts.defaultId, users = [] }: SeedData): { users: User[] } {
      accountOf(mock, accountId);
      const created = users.map((input) => {
        const user = registerUser(mock.state, accountId, input);
        if (!user)
          throw new MockHelperError(`Mobile ${input.mobile} is already registered on account ${accountId}`);
        return userData(user);
      });
      return { users: structuredClone(created) };
    },
    /**
     * A deep copy of the whole state, as JSON carries it (fields set to `undefined` are left out).
     * @example
     * ```ts
     * const before = mock.helpers.snapshot();
     * ```
     */
    snapshot: (): MockState => JSON.parse(JSON.stringify(mock.state)) as MockState,
    /**
     * Replaces the state with a snapshot (copied, so the snapshot can be restored again).
     * @example
     * ```ts
     * const before = mock.helpers.snapshot();
     * mock.helpers.restore(before);
     * ```
     */
    restore(snapshot: MockState): void {
      // Checked whole before anything changes: a refused snapshot leaves the running state as it was.
      try {
        checkState(snapshot);
      } catch (error) {
        if (error instanceof InvalidStateError) throw new MockHelperError(`Cannot restore: ${error.message}`);
        throw error;
      }
      mock.state = cloneState(snapshot);
    },
  };
}
