/**
 * The helpers' contract: one zod/mini schema per helper argument and a one-line summary, keyed `group.action`
 * (`reset` for a top-level helper). The same table validates the in-process helpers (`createHelpers` wraps
 * each one), answers `/__mock` with 400 naming the field, lists the argument shapes on `GET /__mock`, fills the
 * OpenAPI document's `/__mock` paths, and is checked against `docs/mock-server.md` by a test. Its key type is
 * derived from `createHelpers`, so a helper without an entry does not compile.
 */
import * as z from 'zod/mini';
import { networks } from '../../src/schemas/common.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';
import { ChaosOptions } from './chaos.js';

/** What the contract says of one helper. */
export interface HelperSpec {
  /** One line: what the helper does. */
  readonly summary: string;
  /**
   * One schema per positional argument; an optional argument is a `z.optional(...)` schema. Built on first use
   * ({@link helperArgs}): the table's 200-odd schemas were most of the mock's own import.
   */
  readonly args: () => readonly z.ZodMiniType[];
  /**
   * False where the argument cannot cross HTTP (a function): such a helper is in-process only, left out of
   * `GET /__mock`, the helpers' OpenAPI document and `connectMock`, and its path answers 404 `IN_PROCESS_ONLY`.
   */
  readonly http?: false;
  /** For an in-process-only helper: what does the same over HTTP, which its path's 404 names. */
  readonly overHttp?: string;
  /**
   * True for a helper that only reads: the standalone server also answers it to `GET` (query string as the
   * argument). Every other helper changes state and takes only `POST` (`mock/server/guard.ts`).
   */
  readonly reads?: true;
  /**
   * For a helper whose first argument is not an object: the field that carries it in the HTTP body, which is
   * always a JSON object (`{ "duration": "1h" }`); the body's other fields are the second argument.
   */
  readonly field?: string;
}

const accountRef = z.optional(z.object({ accountId: z.optional(z.string()) }));
const userChannel = z.object({ userId: z.string(), channel: z.enum(['mobile', 'email']) });
const transactionRef = z.object({ transactionId: z.string() });
const decimal = z.string().check(z.regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "84.10"'));
const FAULT_STATUS = { error: 'must be an HTTP status from 400 to 599' };
const score = z.number().check(z.gte(0), z.lte(1));

const accountSettings = {
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  status: z.optional(z.string()),
  webhookUrl: z.optional(z.string()),
  webhookSecret: z.optional(z.string()),
  developerFee: z.optional(z.object({ enabled: z.boolean(), percent: z.number() })),
  limits: z.optional(z.object({ rateLimit: z.number().check(z.int(), z.gte(1)) })),
  ipAllowList: z.optional(z.object({ enabled: z.boolean(), addresses: z.array(z.string()) })),
  prefunded: z.optional(z.object({ approved: z.boolean(), creditLimitUsd: decimal })),
};

const newUser = z.object({
  mobile: z.string(),
  email: z.optional(z.string()),
  name: z.optional(z.string()),
  deviceId: z.optional(z.string()),
  mobileVerified: z.optional(z.boolean()),
  emailVerified: z.optional(z.boolean()),
  mobileVerifiedAt: z.optional(z.string()),
  emailVerifiedAt: z.optional(z.string()),
});

const newTranches = z.array(
  z.object({
    rate: decimal,
    inrAmount: decimal,
    dealId: z.optional(z.string()),
    dealNumber: z.optional(z.string()),
  }),
);

/** A duration: milliseconds, or text such as `90s`, `10m`, `1h30m`, `2d`. */
const duration = z.union([
  z.number().check(z.gte(0)),
  z.string().check(
    z.regex(/^(\d+(\.\d+)?(ms|s|m|h|d))+$/, {
      error: "must be ms or text like '500ms', '10m', '24h', '1h30m' (units ms, s, m, h, d)",
    }),
  ),
]);

/** The helper contract, `group.action` → spec. Entries follow `createHelpers`' order. */
export const HELPER_CONTRACT = {
  reset: {
    summary:
      'Back to the state the service started in: clears users, transactions, events, faults and later settings; keeps its start-up options (the seed unless one is given, start time, sandbox key, webhook secret and URL, chaos)',
    args: () => [z.optional(z.object({ seed: z.optional(z.union([z.string(), z.number()])) }))],
  },
  seed: {
    summary: 'Adds users to an account (default the service account) and returns them in wire form',
    args: () => [z.object({ accountId: z.optional(z.string()), users: z.optional(z.array(newUser)) })],
  },
  snapshot: { reads: true, summary: 'A copy of the whole state, to restore later', args: () => [] },
  restore: {
    summary: 'Replaces the state with a snapshot taken earlier',
    args: () => [z.record(z.string(), z.unknown())],
  },
  'accounts.create': {
    summary: 'Adds an account (keys and secret from the seed unless given) and returns it',
    args: () => [
      z.optional(
        z.object({
          id: z.optional(z.string()),
          sandboxKey: z.optional(z.string()),
          liveKey: z.optional(z.string()),
          ...accountSettings,
        }),
      ),
    ],
  },
  'accounts.get': {
    reads: true,
    summary: 'An account (default the service account)',
    args: () => [accountRef],
  },
  'accounts.update': {
    summary:
      'Changes settings of an account; top-level fields are replaced, and webhookUrl null clears the URL',
    // Checked whole before the account is touched: an unknown setting is refused, naming it. `webhookUrl: null`
    // clears the URL (events then stay pending, as before one was set).
    args: () => [
      z.strictObject({
        accountId: z.optional(z.string()),
        ...accountSettings,
        webhookUrl: z.optional(z.nullable(z.url())),
        webhookSecret: z.optional(z.string().check(z.minLength(1))),
        developerFee: z.optional(
          z.strictObject({ enabled: z.boolean(), percent: z.number().check(z.gte(0), z.lte(100)) }),
        ),
        limits: z.optional(z.strictObject({ rateLimit: z.number().check(z.int(), z.gte(1)) })),
        ipAllowList: z.optional(z.strictObject({ enabled: z.boolean(), addresses: z.array(z.string()) })),
        prefunded: z.optional(z.strictObject({ approved: z.boolean(), creditLimitUsd: decimal })),
      }),
    ],
  },
  'clock.now': { reads: true, summary: 'The virtual time, ISO 8601 UTC', args: () => [] },
  'clock.advance': {
    summary: 'Moves the virtual time forward, running every timer that falls due',
    args: () => [duration],
    field: 'duration',
  },
  'clock.runDue': { summary: 'Runs the timers due now', args: () => [] },
  'clock.pending': { reads: true, summary: 'The pending timers, earliest first', args: () => [] },
  'faults.inject': {
    summary: 'Injects a fault (latency, error, drop, drop-after-commit) for the next matching requests',
    args: () => [
      z.object({
        match: ChaosOptions.shape.match,
        kind: z.enum(['latency', 'error', 'drop', 'drop-after-commit']),
        ms: z.optional(z.number().check(z.gte(0))),
        status: z.optional(z.number().check(z.int(), z.gte(400, FAULT_STATUS), z.lte(599, FAULT_STATUS))),
        times: z.optional(z.number().check(z.int(), z.gte(1))),
      }),
    ],
  },
  'faults.list': { reads: true, summary: 'The faults still waiting', args: () => [] },
  'faults.chaos': {
    summary: 'Seeded chaos: every matching request draws a fault at a rate, replayable from the seed',
    args: () => [ChaosOptions],
  },
  'faults.chaosLog': {
    reads: true,
    summary: 'The faults chaos drew so far, in request order',
    args: () => [],
  },
  'faults.clear': { summary: 'Removes every waiting fault and ends chaos', args: () => [] },
  'otp.read': {
    reads: true,
    summary: 'The OTP last sent to a user on a channel, with its expiry and attempts',
    args: () => [userChannel],
  },
  'verification.complete': {
    summary: "Marks a user's mobile or email verified without an OTP",
    args: () => [userChannel],
  },
  'users.seedVerified': {
    summary:
      'Adds a user with verified mobile, email, KYC and bank account, ready to transact; sends no event (no user.created, no kyc.*)',
    args: () => [
      z.object({
        mobile: z.string(),
        name: z.optional(z.string()),
        email: z.optional(z.string()),
        accountId: z.optional(z.string()),
        bank: z.optional(z.boolean()),
        kycStatus: z.optional(z.enum(['pending', 'in_progress', 'verified', 'rejected'])),
      }),
    ],
  },
  'transactions.simulateDeposit': {
    summary: 'Simulates the deposit (full, short or over); answers the milliseconds until it is confirmed',
    args: () => [
      z.object({ transactionId: z.string(), amount: z.optional(decimal), txHash: z.optional(z.string()) }),
    ],
  },
  'transactions.confirmationMs': {
    reads: true,
    summary: "The milliseconds a network's confirmations take on the virtual clock",
    args: () => [z.enum(networks)],
    field: 'network',
  },
  'transactions.completePayout': {
    summary: 'Completes a processing payout now',
    args: () => [transactionRef],
  },
  'transactions.failPayout': {
    summary: 'Fails a processing payout now with a failure code',
    args: () => [
      z.object({ transactionId: z.string(), code: z.optional(z.string()), reason: z.optional(z.string()) }),
    ],
  },
  'transactions.setExchangeRate': {
    summary: 'Sets the INR per USD rate new quotes use',
    args: () => [decimal],
    field: 'rate',
  },
  'transactions.get': {
    reads: true,
    summary: 'A transaction as the mock stores it',
    args: () => [z.string()],
    field: 'transactionId',
  },
  'tranches.add': {
    summary: 'Adds settlement tranches (rate, INR amount) the payouts are attributed to, FIFO',
    args: () => [newTranches, accountRef],
    field: 'tranches',
  },
  'tranches.replace': {
    summary: "Replaces an account's unspent tranches with these (the INR pool starts over)",
    args: () => [newTranches, accountRef],
    field: 'tranches',
  },
  'tranches.clear': {
    summary: "Empties an account's INR pool: later payouts are not attributed",
    args: () => [accountRef],
  },
  'tranches.list': { reads: true, summary: "An account's tranches", args: () => [accountRef] },
  'webhooks.captured': {
    reads: true,
    summary: 'Every delivery attempt made, with its signed request and answer',
    args: () => [],
  },
  'webhooks.events': {
    reads: true,
    summary: 'The events recorded, optionally of one type',
    args: () => [z.optional(z.object({ type: z.optional(z.enum(WEBHOOK_EVENT_TYPES)) }))],
  },
  'webhooks.settle': {
    summary:
      'Sends every delivery due now, then resolves once none is in flight (each answered or timed out)',
    args: () => [],
  },
  'webhooks.sign': {
    summary: "Signs any payload with the account's webhook secret: the exact body and the headers to send",
    args: () => [
      z.object({
        payload: z.unknown(),
        accountId: z.optional(z.string()),
        timestamp: z.optional(z.number().check(z.int(), z.gte(0))),
      }),
    ],
  },
  'webhooks.trigger': {
    summary:
      'Sends a synthetic event of any type, with data overrides, through the real signed and retried delivery',
    args: () => [
      z.object({
        type: z.enum(WEBHOOK_EVENT_TYPES),
        data: z.optional(z.record(z.string(), z.unknown())),
        accountId: z.optional(z.string()),
      }),
    ],
  },
  'webhooks.useFetch': {
    summary: 'Delivers webhooks through this fetch instead of the global one',
    args: () => [z.optional(z.unknown())],
    http: false,
    overHttp:
      'point the account\'s webhooks at your receiver (POST /__mock/accounts/update with { "webhookUrl": "http://127.0.0.1:3000/webhooks" }, or start with --webhook-url): each delivery is then a real signed POST',
  },
  'digilocker.complete': {
    summary: 'Completes a document-locker session: approve (with optional Aadhaar and PAN data) or deny',
    args: () => [
      z.object({
        clientId: z.string(),
        outcome: z.enum(['approve', 'deny']),
        aadhaar: z.optional(z.record(z.string(), z.optional(z.string()))),
        pan: z.optional(z.object({ number: z.optional(z.string()), name: z.optional(z.string()) })),
      }),
    ],
  },
  'face.complete': {
    summary: 'Completes a face session: pass or fail, with optional scores',
    args: () => [
      z.object({
        sessionId: z.string(),
        outcome: z.enum(['pass', 'fail']),
        livenessScore: z.optional(score),
        faceMatchScore: z.optional(score),
      }),
    ],
  },
  'kyc.aadhaarOtp': {
    reads: true,
    summary: 'The Aadhaar OTP "sent" for a reference',
    args: () => [z.object({ referenceId: z.string() })],
  },
  'kyc.chooseOutcome': {
    summary: "Chooses the outcome of the user's next bank or UPI verification",
    args: () => [
      z.union([
        z.object({
          userId: z.string(),
          step: z.literal('bank'),
          outcome: z.enum(['verified', 'penny_drop_failed', 'name_mismatch', 'bank_error']),
        }),
        z.object({
          userId: z.string(),
          step: z.literal('upi'),
          outcome: z.enum(['verified', 'name_mismatch', 'invalid_vpa', 'provider_error']),
        }),
      ]),
    ],
  },
  'kyc.upload': {
    summary: 'Uploads to a presigned URL without HTTP (type and size as the PUT would send)',
    args: () => [
      z.object({ s3Key: z.string(), contentType: z.string(), size: z.number().check(z.int(), z.gte(0)) }),
    ],
  },
  ledger: {
    reads: true,
    summary:
      'Per idempotency key and partnerReference (per user when a create sent neither): what each logical create produced, duplicates flagged',
    args: () => [],
  },
  journal: {
    reads: true,
    summary:
      'What the mock did (requests, transitions, webhook attempts, timers, helper calls), oldest first, filtered',
    args: () => [
      z.optional(
        z.object({
          type: z.optional(z.enum(['request', 'transition', 'webhook', 'timer', 'helper'])),
          userId: z.optional(z.string()),
          transactionId: z.optional(z.string()),
          since: z.optional(
            z.union([z.number(), z.string().check(z.regex(/^\d+$/, 'must be a whole number'))]),
          ),
        }),
      ),
    ],
  },
  bundle: {
    reads: true,
    summary:
      'Every input taken so far (requests, helper calls, clock moves, webhook answers) as one replay bundle',
    args: () => [],
  },
} satisfies Record<string, HelperSpec>;

/** A helper's contract name, `group.action` or a top-level name. */
export type HelperName = keyof typeof HELPER_CONTRACT;

/** The helpers whose argument cannot cross HTTP (`http: false`): `webhooks.useFetch`. */
export type InProcessOnlyHelper = {
  [N in HelperName]: (typeof HELPER_CONTRACT)[N] extends { http: false } ? N : never;
}[HelperName];

/** The helpers the standalone server serves. */
export type HttpHelperName = Exclude<HelperName, InProcessOnlyHelper>;

/** The contract's entry for `name`, or undefined for a name it does not have. */
export function helperSpec(name: string): HelperSpec | undefined {
  const contract: Record<string, HelperSpec> = HELPER_CONTRACT;
  return Object.hasOwn(contract, name) ? contract[name] : undefined;
}

/** Whether the standalone server serves `name` (every helper but an in-process-only one). */
export function servedOverHttp(name: string): boolean {
  return helperSpec(name)?.http !== false;
}

/** The contract's entries the standalone server serves, in the contract's order. */
export function httpHelpers(): [HttpHelperName, HelperSpec][] {
  const entries = Object.entries(HELPER_CONTRACT) as [HelperName, HelperSpec][];
  return entries.filter((entry): entry is [HttpHelperName, HelperSpec] => entry[1].http !== false);
}

const built = new WeakMap<HelperSpec, readonly z.ZodMiniType[]>();

/** A helper's argument schemas, built once. */
export function helperArgs(spec: HelperSpec): readonly z.ZodMiniType[] {
  let args = built.get(spec);
  if (!args) {
    args = spec.args();
    built.set(spec, args);
  }
  return args;
}

/** Where a helper answers over HTTP: `/__mock/group/action`. */
export function helperPath(name: string): string {
  return `/__mock/${name.replace('.', '/')}`;
}

type JsonSchema = Record<string, unknown>;

function inputSchema(schema: z.ZodMiniType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/**
 * The JSON Schema of a helper's HTTP body, always an object: its one object argument, or for a helper with
 * `field`, an object whose `field` is the first argument and whose other properties are the second's.
 * Undefined for a helper that takes nothing.
 */
export function helperBodySchema(spec: HelperSpec): JsonSchema | undefined {
  const [first, second] = helperArgs(spec).map(inputSchema);
  if (!first) return undefined;
  if (!spec.field) return first;
  const rest = second?.properties;
  return {
    type: 'object',
    properties: { [spec.field]: first, ...(typeof rest === 'object' && rest !== null ? rest : {}) },
    required: [spec.field],
    additionalProperties: false,
  };
}
