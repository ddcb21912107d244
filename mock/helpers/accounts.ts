/**
 * Partner accounts: add one, read one, change its settings (webhook URL, rate limit, allow-list, prefunded).
 */
import * as z from 'zod/mini';
import type { CreateAccountInput } from '../engine/accounts.js';
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { createAccount, updateAccount } from '../operations/accounts.js';
import type { AccountRecord, AccountSettings } from '../state/accounts.js';
import { accountOf } from './lookup.js';

// Built on the first update, not at import.
function buildAccountUpdate() {
  return z.strictObject({
    accountId: z.optional(z.string()),
    name: z.optional(z.string()),
    email: z.optional(z.string()),
    status: z.optional(z.string()),
    webhookUrl: z.optional(z.nullable(z.url())),
    webhookSecret: z.optional(z.string().check(z.minLength(1))),
    developerFee: z.optional(
      z.strictObject({ enabled: z.boolean(), percent: z.number().check(z.gte(0), z.lte(100)) }),
    ),
    limits: z.optional(z.strictObject({ rateLimit: z.number().check(z.int(), z.positive()) })),
    ipAllowList: z.optional(z.strictObject({ enabled: z.boolean(), addresses: z.array(z.string()) })),
    prefunded: z.optional(
      z.strictObject({ approved: z.boolean(), creditLimitUsd: z.string().check(z.regex(/^\d+(\.\d+)?$/)) }),
    ),
  });
}

let accountUpdate: ReturnType<typeof buildAccountUpdate> | undefined;

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.length ? issue.path.map(String).join('.') : '(argument)';
      if (issue.code === 'unrecognized_keys') return `${path}: no setting ${issue.keys.join(', ')}`;
      const expected = issue.code === 'invalid_type' ? ` (expected ${issue.expected})` : '';
      return `${path}: ${issue.message}${expected}`;
    })
    .join('; ');
}

export function accountHelpers(mock: ServiceInternals) {
  return {
    /**
     * Adds an account (keys and secret from the seed unless given) and returns it.
     * @example
     * ```ts
     * const other = mock.helpers.accounts.create({ name: 'Other partner' });
     * console.log(other.keys.sandbox.startsWith('pk_sandbox_')); // true
     * ```
     */
    create: (input: CreateAccountInput = {}): AccountRecord =>
      structuredClone(createAccount(mock.state, input)),
    /**
     * An account (the default one when no id is given), as a copy.
     * @example
     * ```ts
     * console.log(mock.helpers.accounts.get().keys.live); // 'pk_live_…'
     * ```
     */
    get: ({ accountId }: { accountId?: string } = {}): AccountRecord =>
      structuredClone(accountOf(mock, accountId)),
    /**
     * Changes settings of an account (the default one when no id is given); top-level fields are replaced.
     * `webhookUrl: null` clears the URL: events are then kept `pending`, as before one was set.
     * @example
     * ```ts
     * mock.helpers.accounts.update({ ipAllowList: { enabled: true, addresses: ['203.0.113.7'] } });
     * ```
     */
    update: (
      input: Partial<Omit<AccountSettings, 'webhookUrl'>> & {
        accountId?: string;
        webhookUrl?: string | null;
      },
    ): AccountRecord => {
      // Validated whole before the account is touched, so a refused patch changes nothing.
      accountUpdate ??= buildAccountUpdate();
      const parsed = z.safeParse(accountUpdate, input);
      if (!parsed.success) throw new MockHelperError(describeIssues(parsed.error.issues));
      const { accountId, ...update } = parsed.data;
      const account = accountOf(mock, accountId);
      updateAccount(account, update);
      return structuredClone(account);
    },
  };
}
