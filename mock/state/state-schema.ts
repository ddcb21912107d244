/**
 * What a state must look like before it replaces the live one (`helpers.restore`, the standalone server's
 * `--state-file`): every slice and collection present with the right kind of value, and each record with
 * the fields the handlers look things up by. Fields a schema does not describe pass (fields the mock adds
 * later), so an older state keeps loading; a state that would make the mock answer 500 is refused up front
 * with the path of what is wrong. The objects are `z.object`, which passes unknown fields as `z.looseObject`
 * does: `checkState` returns the value it was given, never the parsed copy, so copying every field a schema
 * does not describe (as a loose object does) would only cost time, about a third of the check of a state
 * with 100,000 transactions.
 */
import * as z from 'zod/mini';
import type { MockState } from './mock-state.js';

// Built on the first state checked, not at import: most services never restore or load one.
function buildSchema() {
  const text = z.string();
  const count = z.number().check(z.int(), z.nonnegative());
  const time = z.number().check(z.refine(Number.isFinite, 'must be a finite epoch-ms time'));
  const byKey = <T extends z.ZodMiniType>(value: T) => z.record(z.string(), value);

  const account = z.object({
    id: text,
    status: text,
    webhookSecret: text,
    keys: z.object({ sandbox: text, live: text }),
    limits: z.object({ rateLimit: z.number() }),
    ipAllowList: z.object({ enabled: z.boolean(), addresses: z.array(text) }),
    developerFee: z.object({ enabled: z.boolean(), percent: z.number() }),
    prefunded: z.object({ approved: z.boolean(), creditLimitUsd: text }),
  });

  const withUser = z.object({ userId: text });

  const transaction = z.object({
    id: text,
    accountId: text,
    userId: text,
    status: text,
    amount: text,
    timerIds: z.array(text),
    deposit: z.object({}),
    quote: z.object({}),
  });

  const webhookEvent = z.object({
    id: text,
    accountId: text,
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: count,
    envelope: z.object({}),
    deliveries: z.array(z.object({})),
  });

  return z.object({
    version: z.literal(1),
    seed: text,
    rng: z.number().check(z.int()),
    clock: z.object({ now: time, timerSeq: count }),
    timers: z.array(z.object({ id: text, at: time, kind: text })),
    accounts: z.object({ byId: byKey(account), defaultId: text }),
    users: z.object({
      byId: byKey(z.object({ id: text, accountId: text, mobile: text })),
      idByMobile: byKey(text),
    }),
    verification: z.object({ otps: byKey(z.object({ sends: z.array(text) })) }),
    kyc: z.object({
      byUserId: byKey(z.object({ userId: text, level: text, status: text })),
      digilockerSessions: byKey(withUser),
      faceSessions: byKey(withUser),
      aadhaarOtps: byKey(withUser),
      uploads: byKey(withUser),
      nextOutcomes: byKey(z.object({})),
    }),
    transactions: z.object({
      byId: byKey(transaction),
      idByPartnerReference: byKey(text),
      idsByAccount: byKey(z.array(text)),
      activeByUser: byKey(text),
      tranchesByAccount: byKey(z.array(z.object({ remainingInr: text }))),
      outstandingUsdByAccount: byKey(text),
      exchangeRate: text,
      dealSeq: count,
      volumeByAccount: z.optional(byKey(z.object({ totalUsd: text, byMonth: z.record(z.string(), text) }))),
    }),
    webhooks: z.object({
      byId: byKey(webhookEvent),
      idsByAccount: z.optional(byKey(z.array(text))),
      countsByAccount: z.optional(byKey(z.record(z.string(), z.number()))),
    }),
    http: z.object({
      idempotency: byKey(z.object({ fingerprint: text, expiresAt: time })),
      rateWindows: byKey(z.object({ start: time, count })),
      faults: z.array(z.object({ id: text, kind: text, remaining: z.number() })),
      faultSeq: count,
    }),
  });
}

let schema: ReturnType<typeof buildSchema> | undefined;

/** The shape of a {@link MockState}, checked before a state is restored or loaded. */
function mockStateSchema(): ReturnType<typeof buildSchema> {
  schema ??= buildSchema();
  return schema;
}

/** Thrown for a value that is not a mock state; the message lists each wrong field by path. */
export class InvalidStateError extends Error {
  override readonly name = 'InvalidStateError';
  constructor(readonly problems: string[]) {
    super(`not a mock state of version 1: ${problems.join('; ')}`);
  }
}

/**
 * Checks that `value` is a whole mock state and returns it, unchanged, typed; throws
 * {@link InvalidStateError} naming what is wrong. The value is returned as given (not re-created by the
 * schema), so nothing is lost from records the schema does not describe; `withKeyedCollections` or
 * `cloneState` then give it null-prototype collections.
 */
export function checkState(value: unknown): MockState {
  const result = z.safeParse(mockStateSchema(), value);
  if (!result.success) {
    const problems = result.error.issues.slice(0, 5).map((issue) => {
      const path = issue.path.length ? issue.path.map(String).join('.') : '(the state)';
      return `${path}: ${issue.message}`;
    });
    if (result.error.issues.length > 5) problems.push(`and ${result.error.issues.length - 5} more`);
    throw new InvalidStateError(problems);
  }
  const defaultId = (value as MockState).accounts.defaultId;
  if (!Object.hasOwn((value as MockState).accounts.byId, defaultId)) {
    throw new InvalidStateError([`accounts.defaultId: no account ${defaultId} in accounts.byId`]);
  }
  return value as MockState;
}
