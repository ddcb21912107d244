/**
 * What a state must look like before it replaces the live one (`helpers.restore`, the standalone server's
 * `--state-file`): every slice and collection present with the right kind of value, and each record with
 * the fields the handlers look things up by. A state of another `version` is refused naming that version;
 * one of this version that lacks a collection or would make the mock answer 500, by the path of what is
 * wrong. Nothing is rebuilt or migrated: no other version was released. The objects are `z.object`, which
 * passes unknown fields as `z.looseObject` does: `checkState` returns the value it was given, never the
 * parsed copy, so copying every field a schema does not describe (as a loose object does) would only cost
 * time, about a third of the check of a state with 100,000 transactions.
 */
import * as z from 'zod/mini';
import type { MockState } from './mock-state.js';

/** The one state layout this mock reads and writes (`MockState.version`). */
const STATE_VERSION = 1;

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
    version: z.literal(STATE_VERSION),
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
      volumeByAccount: byKey(z.object({ totalUsd: text, byMonth: z.record(z.string(), text) })),
    }),
    webhooks: z.object({
      byId: byKey(webhookEvent),
      idsByAccount: byKey(z.array(text)),
      countsByAccount: byKey(z.record(z.string(), z.number())),
    }),
    http: z.object({
      idempotency: byKey(z.object({ fingerprint: text, expiresAt: time })),
      rateWindows: byKey(z.object({ start: time, count })),
      faults: z.array(z.object({ id: text, kind: text, remaining: z.number() })),
      faultSeq: count,
    }),
  });
}

/** The shape of a {@link MockState}, checked before a state is restored or loaded. */
let schema: ReturnType<typeof buildSchema> | undefined;

/** Thrown for a value that is not a mock state; the message lists each wrong field by path. */
export class InvalidStateError extends Error {
  override readonly name = 'InvalidStateError';
  constructor(readonly problems: string[]) {
    super(`not a mock state of version ${STATE_VERSION}: ${problems.join('; ')}`);
  }
}

/** The `version` of a state that names another one, with what to do; undefined for this version or none. */
function otherVersion(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'version')) return undefined;
  const { version } = value as { version: unknown };
  if (version === STATE_VERSION) return undefined;
  return `version: the state is of version ${JSON.stringify(version)} and this mock reads version ${STATE_VERSION} only; take a new snapshot with this mock (helpers.snapshot) or start from a fresh state`;
}

/** Whether `value` holds something at `path` (an issue's path). */
function has(value: unknown, path: readonly PropertyKey[]): boolean {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return false;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at !== undefined;
}

/**
 * Checks that `value` is a whole mock state and returns it, unchanged, typed; throws
 * {@link InvalidStateError} naming what is wrong. The value is returned as given (not re-created by the
 * schema), so nothing is lost from records the schema does not describe; `withKeyedCollections` or
 * `cloneState` then give it null-prototype collections.
 */
export function checkState(value: unknown): MockState {
  // Before the shape: another version's fields would otherwise be reported one by one as if misspelt.
  const other = otherVersion(value);
  if (other) throw new InvalidStateError([other]);
  schema ??= buildSchema();
  const result = z.safeParse(schema, value);
  if (!result.success) {
    const problems = result.error.issues.slice(0, 5).map((issue) => {
      const path = issue.path.length ? issue.path.map(String).join('.') : '(the state)';
      // A field this version keeps in every state it makes: "missing" says more than zod's "Invalid input".
      const missing = issue.code === 'invalid_type' && !has(value, issue.path);
      return `${path}: ${missing ? 'missing' : issue.message}`;
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
