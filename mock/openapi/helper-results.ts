/**
 * What each test helper answers over HTTP (the `data` of `{ success: true, data }`), as zod/mini schemas for the
 * mock's OpenAPI document (`openapi.mock.json`), so a generated client reads an API key, an OTP or a user ID
 * with no cast. Only the generator and the tests import this module, so the mock's bundle does not grow.
 * Objects are loose: the fields a test reads are typed, and fields the mock adds later pass.
 * `test/mock/openapi/helper-results.test.ts` calls every helper over HTTP and checks each answer against these.
 */
import * as z from 'zod/mini';
import { DigilockerSessionStatus } from '../../src/schemas/kyc/digilocker.js';
import { Transaction, TransactionStatus } from '../../src/schemas/transactions.js';
import { User } from '../../src/schemas/users.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';
import { CHAOS_KINDS } from '../contract/chaos.js';
import type { HttpHelperName } from '../contract/helpers.js';
import { FAULT_KINDS } from '../policies/faults.js';

const text = z.string();
const integer = z.number().check(z.int());
const nothing = z.null();
const match = z.looseObject({ method: z.optional(text), path: z.optional(text) });

const account = z.looseObject({
  id: text,
  name: z.optional(text),
  email: z.optional(text),
  status: text,
  webhookUrl: z.optional(text),
  webhookSecret: text,
  keys: z.looseObject({ sandbox: text, live: text }),
  developerFee: z.looseObject({ enabled: z.boolean(), percent: z.number() }),
  limits: z.looseObject({ rateLimit: integer }),
  ipAllowList: z.looseObject({ enabled: z.boolean(), addresses: z.array(text) }),
  prefunded: z.looseObject({ approved: z.boolean(), creditLimitUsd: text }),
  createdAt: text,
});

const advance = z.looseObject({ now: text, ran: integer });

const timer = z.looseObject({ id: text, at: z.number(), kind: text, payload: z.optional(z.looseObject({})) });

const fault = z.looseObject({
  id: text,
  kind: z.enum(FAULT_KINDS),
  match,
  ms: z.optional(z.number()),
  status: z.optional(integer),
  remaining: integer,
});

const chaosKind = z.enum(CHAOS_KINDS);
const chaosDraw = z.looseObject({
  request: integer,
  method: text,
  path: text,
  kind: chaosKind,
  status: z.optional(integer),
});

const tranche = z.looseObject({
  dealId: text,
  dealNumber: text,
  rate: text,
  inrAmount: text,
  remainingInr: text,
  settledAt: text,
});

const delivery = z.looseObject({
  attempt: integer,
  at: text,
  url: text,
  body: text,
  headers: z.record(z.string(), z.string()),
  status: z.optional(integer),
  responseBody: z.optional(text),
  error: z.optional(text),
  ok: z.boolean(),
  trigger: z.enum(['automatic', 'manual']),
});

const webhookEvent = z.looseObject({
  id: text,
  accountId: text,
  event: z.enum(WEBHOOK_EVENT_TYPES),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: integer,
  transactionId: z.optional(text),
  deliveredAt: z.optional(text),
  createdAt: text,
  envelope: z.looseObject({
    id: text,
    event: text,
    timestamp: text,
    partnerId: text,
    data: z.looseObject({}),
  }),
  deliveries: z.array(delivery),
});

/** The transaction as the mock stores it (mock-only fields included: `kind`, `quote`, `failureCode` …). */
const storedTransaction = z.looseObject({
  id: text,
  accountId: text,
  userId: text,
  kind: z.enum(['standard', 'prefunded']),
  status: TransactionStatus,
  amount: text,
  asset: text,
  network: text,
  partnerReference: z.optional(text),
  depositAddress: text,
  expiresAt: text,
  quote: z.looseObject({}),
  deposit: z.looseObject({}),
  payout: z.optional(z.looseObject({})),
  failureCode: z.optional(text),
  failureReason: z.optional(text),
  createdAt: text,
  updatedAt: text,
});

const ledgerRow = z.looseObject({
  accountId: text,
  key: text,
  users: integer,
  transactions: integer,
  payouts: integer,
  ids: z.array(text),
});

const journalEntry = z.looseObject({
  seq: integer,
  at: text,
  type: z.enum(['request', 'transition', 'webhook', 'timer', 'helper']),
});

/** A whole state: the slices are objects; `helpers.restore` checks them fully before it replaces anything. */
const state = z.looseObject({ version: z.literal(1), seed: text });

/**
 * Each HTTP helper's answer `data`, by helper name; an in-process-only helper (`webhooks.useFetch`) has none.
 */
export const HELPER_RESULTS: Record<HttpHelperName, z.ZodMiniType> = {
  reset: nothing,
  seed: z.looseObject({ users: z.array(User) }),
  snapshot: state,
  restore: nothing,
  'accounts.create': account,
  'accounts.get': account,
  'accounts.update': account,
  'clock.now': text,
  'clock.advance': advance,
  'clock.runDue': advance,
  'clock.pending': z.array(timer),
  'faults.inject': fault,
  'faults.list': z.array(fault),
  'faults.chaos': z.looseObject({
    seed: text,
    rate: z.number(),
    kinds: z.array(chaosKind),
    latencyMs: z.number(),
    match,
    requests: integer,
    burstRemaining: integer,
    log: z.array(chaosDraw),
  }),
  'faults.chaosLog': z.array(chaosDraw),
  'faults.clear': nothing,
  'otp.read': z.looseObject({
    userId: text,
    channel: z.enum(['mobile', 'email']),
    otp: text,
    sentAt: text,
    expiresAt: text,
    expired: z.boolean(),
    attempts: integer,
    attemptsRemaining: integer,
    status: z.enum(['active', 'used']),
  }),
  'verification.complete': z.looseObject({ verifiedAt: text }),
  'users.seedVerified': User,
  'transactions.simulateDeposit': integer,
  'transactions.confirmationMs': integer,
  'transactions.completePayout': Transaction,
  'transactions.failPayout': Transaction,
  'transactions.setExchangeRate': nothing,
  'transactions.get': storedTransaction,
  'tranches.add': z.array(tranche),
  'tranches.replace': z.array(tranche),
  'tranches.clear': nothing,
  'tranches.list': z.array(tranche),
  'webhooks.captured': z.array(
    z.looseObject({
      ...delivery.shape,
      eventId: text,
      event: z.enum(WEBHOOK_EVENT_TYPES),
      eventType: z.enum(WEBHOOK_EVENT_TYPES),
    }),
  ),
  'webhooks.events': z.array(webhookEvent),
  'webhooks.settle': nothing,
  'webhooks.sign': z.looseObject({
    body: text,
    timestamp: integer,
    signature: text,
    headers: z.record(z.string(), z.string()),
  }),
  'webhooks.trigger': webhookEvent,
  'digilocker.complete': z.looseObject({
    clientId: text,
    status: DigilockerSessionStatus,
    redirectUrl: z.optional(text),
  }),
  'face.complete': z.looseObject({ sessionId: text, status: text, redirectUrl: text }),
  'kyc.aadhaarOtp': z.looseObject({ otp: text, expiresAt: text, attempts: integer }),
  'kyc.chooseOutcome': z.looseObject({ userId: text, step: z.enum(['bank', 'upi']), outcome: text }),
  'kyc.upload': z.looseObject({ s3Key: text }),
  ledger: z.looseObject({
    ok: z.boolean(),
    byIdempotencyKey: z.array(ledgerRow),
    byPartnerReference: z.array(ledgerRow),
    unattributedByUser: z.array(ledgerRow),
    duplicates: z.array(ledgerRow),
    totals: z.looseObject({
      users: integer,
      transactions: integer,
      payouts: integer,
      transactionsWithoutReference: integer,
      usersWithoutKey: integer,
    }),
  }),
  journal: z.array(journalEntry),
  bundle: z.looseObject({
    format: z.literal('inr-payouts-mock-bundle'),
    version: z.literal(1),
    options: z.looseObject({}),
    steps: z.array(z.looseObject({ type: z.enum(['request', 'helper', 'clock']) })),
  }),
};
