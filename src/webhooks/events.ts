// Webhook event types, as plain TypeScript: the webhooks entry must not pull in zod or the client.
// Spec 6.1 gives the envelope, 6.2 the ten event types and the `transaction.payout_completed` payload; the other
// payloads and the `id` field are our decisions (docs/webhook-events.md).

/** A string enum that also accepts values the service adds later, keeping editor completion for the known ones. */
type Open<T extends string> = T | (string & {});

/** The ten event types of spec 6.2, in the spec's order. */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.kyc_updated',
  'transaction.created',
  'transaction.deposit_detected',
  'transaction.deposit_confirmed',
  'transaction.sweep_confirmed',
  'transaction.sweep_failed',
  'transaction.payout_initiated',
  'transaction.payout_completed',
  'transaction.payout_failed',
] as const;

/** One of the ten known event types. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** KYC level (spec 2.7). */
export type KycLevel = Open<'none' | 'basic' | 'enhanced'>;

/** KYC aggregate status (spec 3.3). */
export type KycStatus = Open<'pending' | 'in_progress' | 'verified' | 'rejected'>;

/** Transaction status (spec 3.1, with the prefunded flow's `payout_completed` and `awaiting_funds`). */
export type TransactionStatus = Open<
  | 'created'
  | 'deposit_pending'
  | 'deposit_detected'
  | 'deposit_confirmed'
  | 'payout_processing'
  | 'payout_completed'
  | 'awaiting_funds'
  | 'completed'
  | 'failed'
  | 'cancelled'
>;

/** Blockchain network of the deposit leg. */
export type Network = Open<'polygon' | 'ethereum' | 'arbitrum' | 'base' | 'solana'>;

/** Stablecoin of the deposit leg. */
export type Asset = Open<'USDC' | 'USDT'>;

/** A KYC `{ level, status }` pair, as the refresh endpoint shows `previous` and `current` (spec 4.5). */
export interface KycState {
  level: KycLevel;
  status: KycStatus;
}

/** `data` of `user.created`. */
export interface UserCreatedData {
  userId: string;
  /** `+91XXXXXXXXXX`. */
  mobile?: string;
  email?: string;
  createdAt: string;
}

/** `data` of `user.kyc_updated`: the aggregate before and after, as the refresh endpoint shows it. */
export interface UserKycUpdatedData {
  userId: string;
  previous: KycState;
  current: KycState;
}

/** `data` of `transaction.created`. */
export interface TransactionCreatedData {
  transactionId: string;
  userId: string;
  partnerReference?: string;
  status: TransactionStatus;
  /** USD, decimal string. */
  amount: string;
  asset: Asset;
  network: Network;
  depositAddress: string;
  expiresAt: string;
  /** True for a prefunded transaction (`POST /v2/transactions/prefunded`). */
  prefunded?: boolean;
}

/**
 * `data` of `transaction.deposit_detected` and `transaction.deposit_confirmed` (the deposit leg of spec 2.4).
 */
export interface TransactionDepositData {
  transactionId: string;
  status: TransactionStatus;
  network: Network;
  asset: Asset;
  txHash: string;
  /** Decimal string. */
  receivedAmount: string;
  /** Decimal string. */
  expectedAmount: string;
  confirmations: number;
  /** Present on `transaction.deposit_confirmed`. */
  confirmedAt?: string;
}

/** `data` of `transaction.sweep_confirmed` and `transaction.sweep_failed` (pool settlement sweep). */
export interface TransactionSweepData {
  transactionId: string;
  network: Network;
  asset: Asset;
  /** Decimal string. */
  amount: string;
  /** Present on `transaction.sweep_confirmed`. */
  sweepTxHash?: string;
  /** Present on `transaction.sweep_failed`. */
  reason?: string;
}

/** `data` of `transaction.payout_initiated`. */
export interface TransactionPayoutInitiatedData {
  transactionId: string;
  status: TransactionStatus;
  /** Decimal string. */
  amountInr: string;
  rail: Open<'imps'>;
}

/** One deal-rate tranche a payout consumed (spec 2.4, rate attribution). */
export interface RateAllocation {
  dealId: string;
  dealNumber: string;
  /** Decimal string, INR per USDT. */
  rate: string;
  /** Decimal string. */
  inrAmount: string;
  /** Decimal string. */
  usdtAmount: string;
}

/**
 * `data` of `transaction.payout_completed`: the spec 6.2 table field for field (snake_case and a numeric `amount`
 * included, as the spec gives them), plus the optional rate attribution of spec 2.4, which the spec says a client
 * can read by waiting for this webhook.
 */
export interface TransactionPayoutCompletedData {
  transactionId: string;
  /** The partner's merchant reference. */
  merchant_id: string;
  payoutId: string;
  orderId: string;
  /** INR, a JSON number (the spec's one exception to decimal strings here). */
  amount: number;
  currency: Open<'INR'>;
  status: Open<'SUCCESS'>;
  utr: string;
  provider: string;
  receiver_name: string;
  bank_account_masked: string;
  ifsc_code: string;
  completedAt: string;
  message: string;
  /** Effective INR/USDT (decimal string); absent when the payout was not funded from an INR escrow pool. */
  rate?: string;
  /** Total USDT consumed (decimal string), the sum of `allocations[].usdtAmount`. */
  usdtEquivalent?: string;
  /** Tranches consumed, oldest first. */
  allocations?: RateAllocation[];
}

/** `data` of `transaction.payout_failed`. */
export interface TransactionPayoutFailedData {
  transactionId: string;
  status: TransactionStatus;
  /** Decimal string. */
  amountInr: string;
  code: string;
  reason: string;
}

/** The `data` type of each known event type. */
export interface WebhookEventDataMap {
  'user.created': UserCreatedData;
  'user.kyc_updated': UserKycUpdatedData;
  'transaction.created': TransactionCreatedData;
  'transaction.deposit_detected': TransactionDepositData;
  'transaction.deposit_confirmed': TransactionDepositData;
  'transaction.sweep_confirmed': TransactionSweepData;
  'transaction.sweep_failed': TransactionSweepData;
  'transaction.payout_initiated': TransactionPayoutInitiatedData;
  'transaction.payout_completed': TransactionPayoutCompletedData;
  'transaction.payout_failed': TransactionPayoutFailedData;
}

/**
 * The delivered envelope (spec 6.1) plus `id`, the event ID that `GET /v2/webhooks` lists, that
 * `POST /v2/webhooks/{eventId}/retry` takes and that deduplication keys on. Every delivery of one event carries the
 * same `id`; the service also sends it as the `X-Service-Event-Id` header.
 */
export interface WebhookEnvelope<TEvent extends string = string, TData = Record<string, unknown>> {
  id: string;
  event: TEvent;
  /** ISO 8601 UTC, when the event happened. */
  timestamp: string;
  partnerId: string;
  data: TData;
}

/** The event of one known type. */
export type WebhookEventOf<T extends WebhookEventType> = WebhookEnvelope<T, WebhookEventDataMap[T]>;

/** Any of the ten known events, discriminated by `event`: a `switch (event.event)` narrows `data`. */
export type KnownWebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];

/**
 * An event whose type this version of the package does not know (one the service added later). It comes through
 * instead of failing verification; acknowledge it with 2xx so the service does not retry it.
 */
export type UnknownWebhookEvent = WebhookEnvelope<string & {}, Record<string, unknown>>;

/**
 * What `verifyWebhook` returns: a known event or an unknown one. TypeScript cannot exclude an open `string` member
 * when narrowing on a literal, so separate the unknown ones first with {@link isKnownWebhookEvent}; after that a
 * `switch (event.event)` narrows `data` exactly.
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/**
 * Whether the event's type is one of the ten this package knows; narrows to {@link KnownWebhookEvent}.
 *
 * @example
 * ```ts
 * import { isKnownWebhookEvent, signWebhook, verifyWebhook } from 'inr-payouts/webhooks';
 *
 * const secret = 'whsec_example';
 * const payload = { id: 'evt_1', event: 'user.created', timestamp: '2025-01-01T00:00:00.000Z', partnerId: 'p_1',
 *   data: { userId: 'usr_1', createdAt: '2025-01-01T00:00:00.000Z' } };
 * const { body, signature } = signWebhook({ payload, secret });
 * const event = verifyWebhook(body, signature, secret);
 * if (isKnownWebhookEvent(event) && event.event === 'user.created') console.log(event.data.userId);
 * ```
 */
export function isKnownWebhookEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return KNOWN.has(event.event);
}
