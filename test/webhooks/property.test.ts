// Garbage in never gives anything but the library's own error, and never a false accept; tampering with a signed
// message is always caught; and the sync and async paths agree on every input.
import fc from 'fast-check';
import { signWebhook, type verifyWebhook } from 'inr-payouts/webhooks';
import { expect, test } from 'vitest';
import { asyncOutcome, NOW, NOW_SECONDS, type Outcome, syncOutcome } from './helpers.js';

const RUNS = 10_000;
const SECRET = 'whsec_property_secret';
const opts = { now: NOW };
type Args = Parameters<typeof verifyWebhook>;

const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const tValue = fc.oneof(
  fc.constant(String(NOW_SECONDS)),
  fc.integer({ min: NOW_SECONDS - 400, max: NOW_SECONDS + 400 }).map(String),
  fc.string(),
  fc.double().map(String),
);
const element = fc.oneof(
  tValue.map((t) => `t=${t}`),
  hex64.map((h) => `v1=${h}`),
  fc.string().map((s) => `v1=${s}`),
  fc.tuple(fc.string(), fc.string()).map(([k, v]) => `${k}=${v}`),
  fc.string(),
);
const headerArb = fc.oneof(
  fc.array(element, { maxLength: 6 }).map((parts) => parts.join(',')),
  {
    // Well-formed and fresh, so the HMAC comparison runs.
    weight: 4,
    arbitrary: fc
      .tuple(tValue, fc.array(hex64, { minLength: 1, maxLength: 3 }))
      .map(([t, sigs]) => `t=${t},${sigs.map((s) => `v1=${s}`).join(',')}`),
  },
  fc.string(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.constantFrom(undefined, null),
  fc.anything(),
);
const bodyArb = fc.oneof(fc.json(), fc.string(), fc.uint8Array(), fc.jsonValue(), fc.anything());
const secretArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(SECRET) },
  { weight: 2, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.array(fc.string(), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.anything() },
);

const isRejection = (o: Outcome) => 'reason' in o;

test(`arbitrary headers, bodies and secrets: only WebhookVerificationError, never an accept (${RUNS} runs)`, async () => {
  const reasons = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(bodyArb, headerArb, secretArb, async (body, header, secret) => {
      const args = [body, header, secret, opts] as unknown as Args;
      const sync = syncOutcome(...args);
      const async = await asyncOutcome(...args);
      expect(isRejection(sync), JSON.stringify(sync)).toBe(true);
      expect(async).toEqual(sync);
      if ('reason' in sync) reasons.set(sync.reason, (reasons.get(sync.reason) ?? 0) + 1);
    }),
    { numRuns: RUNS },
  );
  // The generators reach every check, the HMAC comparison included, not just the cheap early exits.
  for (const reason of ['missing_secret', 'body_not_raw', 'missing_header', 'malformed_header']) {
    expect(reasons.get(reason), reason).toBeGreaterThan(RUNS / 100);
  }
  expect(reasons.get('timestamp_out_of_tolerance')).toBeGreaterThan(RUNS / 100);
  expect(reasons.get('no_matching_signature')).toBeGreaterThan(RUNS / 20);
}, 60_000);

// Signed messages: the valid one verifies to the payload, any change to the body, `t`, a signature or the secret
// is rejected, by both paths alike.
const payloadArb = fc.record({
  id: fc.string({ minLength: 1 }),
  event: fc.string(),
  timestamp: fc.string(),
  partnerId: fc.string(),
  data: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
});
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('body' as const), index: fc.nat(), delta: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('append' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('truncate' as const), cut: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('signature' as const), index: fc.integer({ min: 0, max: 63 }) }),
  fc.record({
    kind: fc.constant('t' as const),
    delta: fc.integer({ min: -300, max: 300 }).filter((d) => d !== 0),
  }),
  fc.record({ kind: fc.constant('secret' as const), other: fc.string() }),
);

test(`signed messages verify, and every tampering is rejected (${RUNS} runs)`, async () => {
  await fc.assert(
    fc.asyncProperty(payloadArb, fc.integer({ min: -300, max: 300 }), mutation, async (payload, skew, m) => {
      const signed = signWebhook({ payload, secret: SECRET, timestamp: NOW_SECONDS + skew });
      const valid = [Buffer.from(signed.body), signed.signature, SECRET, opts] as Args;
      expect(syncOutcome(...valid)).toEqual({ ok: JSON.parse(signed.body) });
      expect(await asyncOutcome(...valid)).toEqual({ ok: JSON.parse(signed.body) });

      let body = Buffer.from(signed.body);
      let header = signed.signature;
      let secret = SECRET;
      const v1 = signed.signature.slice(signed.signature.indexOf('v1=') + 3);
      switch (m.kind) {
        case 'body': {
          body = Buffer.from(body);
          const i = m.index % body.length;
          body[i] = ((body[i] ?? 0) + m.delta) % 256;
          break;
        }
        case 'append':
          body = Buffer.concat([body, m.extra]);
          break;
        case 'truncate':
          body = body.subarray(0, Math.max(0, body.length - m.cut));
          break;
        case 'signature': {
          const c = v1[m.index] ?? '0';
          const flipped = ((Number.parseInt(c, 16) + 1) % 16).toString(16);
          header = `t=${signed.timestamp},v1=${v1.slice(0, m.index)}${flipped}${v1.slice(m.index + 1)}`;
          break;
        }
        case 't':
          header = `t=${signed.timestamp + m.delta},v1=${v1}`;
          break;
        case 'secret':
          fc.pre(m.other !== SECRET);
          secret = m.other;
          break;
      }
      const args = [body, header, secret, opts] as Args;
      const sync = syncOutcome(...args);
      expect(isRejection(sync), JSON.stringify(sync)).toBe(true);
      expect(await asyncOutcome(...args)).toEqual(sync);
    }),
    { numRuns: RUNS },
  );
}, 60_000);
