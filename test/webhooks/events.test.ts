// Compile-time checks (tsc runs over test/); the runtime assertions only keep vitest honest.
import {
  isKnownWebhookEvent,
  type KnownWebhookEvent,
  type TransactionPayoutCompletedData,
  type UnknownWebhookEvent,
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from 'inr-payouts/webhooks';
import { expect, expectTypeOf, test } from 'vitest';

test('verifyWebhook returns the event union', () => {
  expectTypeOf(verifyWebhook).returns.toEqualTypeOf<WebhookEvent>();
});

test('the ten event types, as a const array and as the union', () => {
  expect(WEBHOOK_EVENT_TYPES).toHaveLength(10);
  expect(new Set(WEBHOOK_EVENT_TYPES).size).toBe(10);
  expectTypeOf<KnownWebhookEvent['event']>().toEqualTypeOf<WebhookEventType>();
});

test('after isKnownWebhookEvent, a switch narrows data exactly', () => {
  const summary = (event: WebhookEvent): string => {
    if (!isKnownWebhookEvent(event)) {
      expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
      expectTypeOf(event.data).toEqualTypeOf<Record<string, unknown>>();
      return `unknown ${event.event}`;
    }
    switch (event.event) {
      case 'transaction.payout_completed':
        expectTypeOf(event.data).toEqualTypeOf<TransactionPayoutCompletedData>();
        expectTypeOf(event.data.amount).toEqualTypeOf<number>();
        expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'transaction.payout_completed'>>();
        return event.data.utr;
      case 'user.kyc_updated':
        return event.data.current.status;
      case 'transaction.deposit_confirmed':
      case 'transaction.deposit_detected':
        return event.data.txHash;
      default:
        return event.event;
    }
  };
  const event = {
    id: 'evt_1',
    event: 'transaction.payout_completed',
    timestamp: '',
    partnerId: 'p',
    data: { utr: 'UTR1' },
  } as unknown as WebhookEvent;
  expect(summary(event)).toBe('UTR1');
  expect(summary({ ...event, event: 'account.renamed' } as WebhookEvent)).toBe('unknown account.renamed');
});

test('every transaction.* payload carries transactionId', () => {
  type Tx = Extract<KnownWebhookEvent, { event: `transaction.${string}` }>;
  expectTypeOf<Tx['data']['transactionId']>().toEqualTypeOf<string>();
});

test('isKnownWebhookEvent at runtime', () => {
  const base = { id: 'e', timestamp: '', partnerId: 'p', data: {} };
  for (const type of WEBHOOK_EVENT_TYPES)
    expect(isKnownWebhookEvent({ ...base, event: type } as WebhookEvent)).toBe(true);
  expect(isKnownWebhookEvent({ ...base, event: 'transaction.refunded' })).toBe(false);
  expect(isKnownWebhookEvent({ ...base, event: 'toString' })).toBe(false);
});
