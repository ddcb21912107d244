// Quality bars (PRODUCT.md): sync verify+parse >= 0.9x a raw node:crypto verify + JSON.parse; the WebCrypto path
// >= 4x Stripe's SubtleCrypto path (emulated here: stripe is not a dependency; it imports the key and signs on
// every call, then hex-encodes and compares strings). Run: npx vitest bench --run test/webhooks
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signWebhook, verifyWebhook, verifyWebhookAsync } from 'inr-payouts/webhooks';
import { bench, describe } from 'vitest';
import { envelope } from './helpers.js';

const secret = 'whsec_bench_secret';
const payload = envelope({
  event: 'transaction.payout_completed',
  data: { transactionId: 'txn_1', amount: 8450, utr: 'UTR123456789', message: 'Payout successful' },
});
const { body, header, timestamp } = signWebhook({ payload, secret });
const now = timestamp * 1000;
const bytes = Buffer.from(body);
const encoder = new TextEncoder();

describe('sync verify + parse', () => {
  bench('raw node:crypto (baseline)', () => {
    const [tPart = '', vPart = ''] = header.split(',');
    const t = tPart.slice(2);
    if (Math.abs(Math.floor(now / 1000) - Number(t)) > 300) throw new Error('stale');
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
    if (!timingSafeEqual(expected, Buffer.from(vPart.slice(3), 'hex'))) throw new Error('bad');
    JSON.parse(body);
  });
  bench('verifyWebhook (string body)', () => {
    verifyWebhook(body, header, secret, { now });
  });
  bench('verifyWebhook (Buffer body)', () => {
    verifyWebhook(bytes, header, secret, { now });
  });
});

describe('WebCrypto verify + parse', async () => {
  const subtle = globalThis.crypto.subtle;
  bench('Stripe-style SubtleCrypto (import + sign + hex compare per call)', async () => {
    const [tPart = '', vPart = ''] = header.split(',');
    const t = tPart.slice(2);
    const key = await subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = new Uint8Array(await subtle.sign('HMAC', key, encoder.encode(`${t}.${body}`)));
    const hex = Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
    if (hex !== vPart.slice(3)) throw new Error('bad');
    JSON.parse(body);
  });
  const cachedKey = await subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  bench('raw WebCrypto, cached key (baseline)', async () => {
    const [tPart = '', vPart = ''] = header.split(',');
    const t = tPart.slice(2);
    const sig = Uint8Array.from(Buffer.from(vPart.slice(3), 'hex'));
    if (!(await subtle.verify('HMAC', cachedKey, sig, encoder.encode(`${t}.${body}`))))
      throw new Error('bad');
    JSON.parse(body);
  });
  bench('verifyWebhookAsync', async () => {
    await verifyWebhookAsync(body, header, secret, { now });
  });
});
