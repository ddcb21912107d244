/**
 * Webhooks for receivers in any language: `webhooks.sign` signs any payload with the account's secret, and
 * `webhooks.trigger` sends a synthetic event of any type through the real delivery.
 */
import { describe, expect, it } from 'vitest';
import { createMockService, MockArgumentError } from '../../../mock/index.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';

describe('helpers.webhooks.sign', () => {
  it('signs a payload as a delivery would, verifiable with the account secret', () => {
    const mock = createMockService({ startTime: '2025-03-01T09:00:00Z' });
    const secret = mock.helpers.accounts.get().webhookSecret;
    const signed = mock.helpers.webhooks.sign({ payload: { id: 'evt_1', event: 'user.created', data: {} } });
    expect(signed.body).toBe('{"id":"evt_1","event":"user.created","data":{}}');
    expect(signed.timestamp).toBe(Date.parse('2025-03-01T09:00:00Z') / 1000);
    expect(signed.headers['x-service-signature']).toBe(signed.signature);
    const event = verifyWebhook(signed.body, signed.signature, secret, {
      now: new Date('2025-03-01T09:00:00Z'),
    });
    expect(event).toMatchObject({ id: 'evt_1' });
  });

  it('keeps a string payload exactly, and takes a timestamp', () => {
    const mock = createMockService();
    const signed = mock.helpers.webhooks.sign({ payload: '{"a": 1}', timestamp: 1_700_000_000 });
    expect(signed.body).toBe('{"a": 1}');
    expect(signed.signature).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
  });
});

describe('helpers.webhooks.trigger', () => {
  it('delivers a synthetic event with the overrides, signed and recorded, retried like any other', async () => {
    const mock = createMockService({ account: { webhookUrl: 'https://partner.test/hooks' } });
    const received: { body: string; headers: Headers }[] = [];
    let calls = 0;
    mock.helpers.webhooks.useFetch(async (_url, init) => {
      received.push({ body: String(init.body), headers: new Headers(init.headers) });
      return new Response(null, { status: ++calls === 1 ? 500 : 200 });
    });
    const before = mock.helpers.snapshot();
    const event = mock.helpers.webhooks.trigger({
      type: 'transaction.payout_failed',
      data: { code: 'BANK_ACCOUNT_INVALID', transactionId: 'txn_mine' },
    });
    expect(event).toMatchObject({ synthetic: true, eventType: 'transaction.payout_failed' });
    expect(event.envelope.data).toMatchObject({ code: 'BANK_ACCOUNT_INVALID', transactionId: 'txn_mine' });
    await mock.clock.advance('10s');
    expect(received).toHaveLength(2);
    const secret = mock.helpers.accounts.get().webhookSecret;
    // Signed at the wall clock's time of the POST, so the receiver's own clock verifies it.
    const delivered = verifyWebhook(
      received[1]?.body ?? '',
      received[1]?.headers.get('x-service-signature'),
      secret,
    );
    expect(delivered).toMatchObject({
      event: 'transaction.payout_failed',
      data: { code: 'BANK_ACCOUNT_INVALID' },
    });
    expect(mock.helpers.webhooks.events({ type: 'transaction.payout_failed' })[0]?.status).toBe('delivered');
    // Nothing stored changed besides the event.
    expect(mock.helpers.snapshot().transactions).toEqual(before.transactions);
  });

  it('refuses data that does not fit the payload, naming the field, and sends nothing', () => {
    const mock = createMockService();
    expect(() =>
      mock.helpers.webhooks.trigger({ type: 'transaction.payout_completed', data: { amount: 'lots' } }),
    ).toThrow(MockArgumentError);
    try {
      mock.helpers.webhooks.trigger({ type: 'transaction.payout_completed', data: { amount: 'lots' } });
    } catch (error) {
      expect(error).toMatchObject({ field: 'data.amount' });
    }
    expect(() => mock.helpers.webhooks.trigger({ type: 'user.deleted' as 'user.created' })).toThrow(
      /field type must be one of/,
    );
    expect(mock.helpers.webhooks.events()).toEqual([]);
  });
});
