// Targets against the fastest raw path of each API: sync verify + parse >= 0.95x node:crypto's HMAC from a KeyObject
// made once, timingSafeEqual on the decoded bytes and JSON.parse; the WebCrypto path >= 0.95x a bare
// crypto.subtle.verify with the key imported once. Stripe (the real `stripe` package: constructEvent, and
// constructEventAsync with Stripe.createSubtleCryptoProvider(), which imports the key on every call) is shown beside.
// Stripe signs the same way (HMAC-SHA256 of `t.payload`, header `t=...,v1=...`), so one header serves both.
// Run: npm run bench -- test/webhooks
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { signWebhook, verifyWebhook, verifyWebhookAsync } from 'inr-payouts/webhooks';
import Stripe from 'stripe';
import { afterAll, bench, describe } from 'vitest';
import { measureInterleaved, printRatios } from '../bench/ratio.js';
import { TARGETS } from '../bench/targets.js';
import { envelope } from './helpers.js';

const secret = 'whsec_bench_secret';
const payload = envelope({
  event: 'transaction.payout_completed',
  data: { transactionId: 'txn_1', amount: 8450, utr: 'UTR123456789', message: 'Payout successful' },
});
const { body, signature } = signWebhook({ payload, secret });
const bytes = Buffer.from(body);
const encoder = new TextEncoder();
const subtle = globalThis.crypto.subtle;
const stripeWebhooks = new Stripe('sk_test_bench').webhooks;
const stripeSubtle = Stripe.createSubtleCryptoProvider();

// The key made once, as a verifier that keeps its secret would: the floor of any node:crypto verifier.
const keyObject = createSecretKey(Buffer.from(secret));
const sync = {
  raw: () => {
    const [tPart = '', vPart = ''] = signature.split(',');
    const t = tPart.slice(2);
    if (Math.abs(Math.floor(Date.now() / 1000) - Number(t)) > 300) throw new Error('stale');
    const expected = createHmac('sha256', keyObject).update(`${t}.${body}`).digest();
    if (!timingSafeEqual(expected, Buffer.from(vPart.slice(3), 'hex'))) throw new Error('bad');
    return JSON.parse(body);
  },
  ours: () => verifyWebhook(body, signature, secret),
  oursBuffer: () => verifyWebhook(bytes, signature, secret),
  stripe: () => stripeWebhooks.constructEvent(body, signature, secret),
};

const importKey = () =>
  subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
// The hand-written WebCrypto baseline with the key imported once: the floor any WebCrypto verifier can reach.
const cachedKey = await importKey();
/** The hand-written WebCrypto check with `key`: the HMAC of `t.body` against the signature, then the parse. */
const verifyWith = async (key: CryptoKey) => {
  const [tPart = '', vPart = ''] = signature.split(',');
  const t = tPart.slice(2);
  const sig = Uint8Array.from(Buffer.from(vPart.slice(3), 'hex'));
  if (!(await subtle.verify('HMAC', key, sig, encoder.encode(`${t}.${body}`)))) throw new Error('bad');
  return JSON.parse(body);
};
const webCrypto = {
  stripe: () => stripeWebhooks.constructEventAsync(body, signature, secret, undefined, stripeSubtle),
  importEachCall: async () => verifyWith(await importKey()),
  cachedKey: () => verifyWith(cachedKey),
  ours: () => verifyWebhookAsync(body, signature, secret),
};

afterAll(async () => {
  await measureInterleaved(sync, { async: false, batch: 2000, rounds: 3 }); // warm-up
  const syncMicros = await measureInterleaved(sync, { async: false, batch: 2000, rounds: 60 });
  printRatios('webhook verify + parse, sync (node:crypto)', syncMicros, [
    { target: TARGETS.verifyWebhook, subject: 'ours', baseline: 'raw' },
    {
      label: 'verifyWebhook (Buffer) vs raw',
      subject: 'oursBuffer',
      baseline: 'raw',
      kind: 'speed',
      bar: 0.95,
    },
    {
      label: 'verifyWebhook vs stripe constructEvent',
      subject: 'ours',
      baseline: 'stripe',
      kind: 'speed',
      bar: 1,
    },
  ]);
  const asyncMicros = await measureInterleaved(webCrypto, { batch: 500, rounds: 30 });
  printRatios('webhook verify + parse, WebCrypto', asyncMicros, [
    { target: TARGETS.verifyWebhookAsync, subject: 'ours', baseline: 'cachedKey' },
    {
      label: 'verifyWebhookAsync vs stripe constructEventAsync (SubtleCrypto)',
      subject: 'ours',
      baseline: 'stripe',
      kind: 'speed',
      bar: 1,
    },
    {
      label: 'verifyWebhookAsync vs importing the key on every call',
      subject: 'ours',
      baseline: 'importEachCall',
      kind: 'speed',
      bar: 1,
    },
  ]);
}, 300_000);

describe('sync verify + parse', () => {
  bench('raw node:crypto HMAC (KeyObject made once) + timingSafeEqual + JSON.parse (baseline)', () => {
    sync.raw();
  });
  bench('verifyWebhook (string body)', () => {
    sync.ours();
  });
  bench('verifyWebhook (Buffer body)', () => {
    sync.oursBuffer();
  });
  bench('stripe webhooks.constructEvent', () => {
    sync.stripe();
  });
});

describe('WebCrypto verify + parse', () => {
  bench('stripe constructEventAsync + createSubtleCryptoProvider()', async () => {
    await webCrypto.stripe();
  });
  bench('raw WebCrypto, key imported on every call', async () => {
    await webCrypto.importEachCall();
  });
  bench('raw WebCrypto, cached key (baseline)', async () => {
    await webCrypto.cachedKey();
  });
  bench('verifyWebhookAsync', async () => {
    await webCrypto.ours();
  });
});
