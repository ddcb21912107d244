import fc from 'fast-check';
import {
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookAsync,
  type WebhookBody,
  WebhookVerificationError,
} from 'inr-payouts/webhooks';
import { describe, expect, test } from 'vitest';
import { asyncOutcome, envelope, hmacHex, NOW, NOW_SECONDS, type Outcome, syncOutcome } from './helpers.js';

// Known answer, computed with openssl, not with node:
//   printf '%s' "1735689900.$BODY" | openssl dgst -sha256 -hmac 'whsec_test_secret' -hex
const KAT = {
  secret: 'whsec_test_secret',
  t: 1_735_689_900,
  body:
    '{"id":"evt_kat_1","event":"transaction.payout_completed","timestamp":"2025-01-01T00:05:00.000Z",' +
    '"partnerId":"partner_1","data":{"transactionId":"txn_1","amount":8450}}',
  v1: '62fcf760c4b8f6c46571decce3876aae6e95012c7c30e1d1531b63da4174ec0b',
};

const SECRET = 'whsec_SENTINEL_secret_value';
const BODY = JSON.stringify(envelope());
const at = { now: NOW } satisfies VerifyWebhookOptions;
const sig = (t: number | string = NOW_SECONDS, body: string | Uint8Array = BODY, secret = SECRET) =>
  hmacHex(secret, t, body);
const header = (t: number | string = NOW_SECONDS, ...v1s: string[]) =>
  [`t=${t}`, ...(v1s.length > 0 ? v1s : [sig(t)]).map((v) => `v1=${v}`)].join(',');
const flipHex = (hex: string, i = 0) => hex.slice(0, i) + (hex[i] === '0' ? '1' : '0') + hex.slice(i + 1);
const bytes = (s: string) => new TextEncoder().encode(s);
const untyped = <T>(value: unknown) => value as T;

interface Case {
  name: string;
  args: Parameters<typeof verifyWebhook>;
  /** The expected event id, or the expected rejection reason (with a message pattern). */
  expect: { id: string } | { reason: WebhookVerificationError['reason']; message?: RegExp };
}

const padded = bytes(`xx${BODY}yy`);
const cases: Case[] = [
  // Known answer and body forms.
  {
    name: 'known-answer vector',
    args: [KAT.body, `t=${KAT.t},v1=${KAT.v1}`, KAT.secret, { now: KAT.t * 1000 }],
    expect: { id: 'evt_kat_1' },
  },
  { name: 'body as string', args: [BODY, header(), SECRET, at], expect: { id: 'evt_1' } },
  { name: 'body as Buffer', args: [Buffer.from(BODY), header(), SECRET, at], expect: { id: 'evt_1' } },
  { name: 'body as Uint8Array', args: [bytes(BODY), header(), SECRET, at], expect: { id: 'evt_1' } },
  {
    name: 'body as ArrayBuffer',
    args: [bytes(BODY).buffer as ArrayBuffer, header(), SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'body as a Uint8Array view into a larger buffer',
    args: [padded.subarray(2, padded.length - 2), header(), SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'non-ASCII body as string and as bytes',
    args: [
      Buffer.from(JSON.stringify(envelope({ id: 'evt_₹' }))),
      header(NOW_SECONDS, sig(NOW_SECONDS, JSON.stringify(envelope({ id: 'evt_₹' })))),
      SECRET,
      at,
    ],
    expect: { id: 'evt_₹' },
  },
  // Tampering.
  {
    name: 'tampered body',
    args: [BODY.replace('usr_1', 'usr_2'), header(), SECRET, at],
    expect: { reason: 'no_matching_signature' },
  },
  {
    name: 'body with a trailing newline',
    args: [`${BODY}\n`, header(), SECRET, at],
    expect: { reason: 'no_matching_signature' },
  },
  {
    name: 're-serialised body',
    args: [JSON.stringify(JSON.parse(BODY), null, 2), header(), SECRET, at],
    expect: { reason: 'no_matching_signature', message: /raw body, unmodified/ },
  },
  {
    name: 'tampered signature',
    args: [BODY, header(NOW_SECONDS, flipHex(sig(), 63)), SECRET, at],
    expect: { reason: 'no_matching_signature' },
  },
  {
    name: 'tampered timestamp',
    args: [BODY, `t=${NOW_SECONDS + 1},v1=${sig()}`, SECRET, at],
    expect: { reason: 'no_matching_signature' },
  },
  {
    name: 'wrong secret',
    args: [BODY, header(), 'whsec_other', at],
    expect: { reason: 'no_matching_signature' },
  },
  // Tolerance, both directions.
  {
    name: 't 300 s in the past',
    args: [BODY, header(NOW_SECONDS - 300), SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 't 300 s in the future',
    args: [BODY, header(NOW_SECONDS + 300), SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 't 301 s in the past',
    args: [BODY, header(NOW_SECONDS - 301), SECRET, at],
    expect: { reason: 'timestamp_out_of_tolerance', message: /301 s in the past \(tolerance 300 s\)/ },
  },
  {
    name: 't 301 s in the future',
    args: [BODY, header(NOW_SECONDS + 301), SECRET, at],
    expect: { reason: 'timestamp_out_of_tolerance', message: /301 s in the future/ },
  },
  {
    name: 'now with milliseconds still counts whole seconds',
    args: [BODY, header(NOW_SECONDS - 300), SECRET, { now: NOW + 999 }],
    expect: { id: 'evt_1' },
  },
  {
    name: 'now as a Date',
    args: [BODY, header(NOW_SECONDS), SECRET, { now: new Date(NOW) }],
    expect: { id: 'evt_1' },
  },
  {
    name: 'custom tolerance, inside',
    args: [BODY, header(NOW_SECONDS + 10), SECRET, { now: NOW, toleranceSeconds: 10 }],
    expect: { id: 'evt_1' },
  },
  {
    name: 'custom tolerance, outside',
    args: [BODY, header(NOW_SECONDS - 11), SECRET, { now: NOW, toleranceSeconds: 10 }],
    expect: { reason: 'timestamp_out_of_tolerance' },
  },
  {
    name: 'a NaN tolerance rejects rather than accepts',
    args: [BODY, header(), SECRET, { now: NOW, toleranceSeconds: Number.NaN }],
    expect: { reason: 'timestamp_out_of_tolerance' },
  },
  {
    name: 'an invalid Date as now rejects rather than accepts',
    args: [BODY, header(), SECRET, { now: new Date(Number.NaN) }],
    expect: { reason: 'timestamp_out_of_tolerance' },
  },
  {
    name: 't in milliseconds',
    args: [BODY, header(NOW), SECRET, at],
    expect: { reason: 'timestamp_out_of_tolerance', message: /looks like milliseconds/ },
  },
  {
    name: 'default clock: a stale timestamp',
    args: [BODY, header(NOW_SECONDS), SECRET],
    expect: { reason: 'timestamp_out_of_tolerance' },
  },
  // Malformed headers.
  ...['1735689900.5', '1.7e9', '-1', 'abc', '', ' ', '0x10', '１２３'].map(
    (t): Case => ({
      name: `non-integer t ${JSON.stringify(t)}`,
      args: [BODY, `t=${t},v1=${sig()}`, SECRET, at],
      expect: { reason: 'malformed_header', message: /whole seconds/ },
    }),
  ),
  {
    name: 'missing t',
    args: [BODY, `v1=${sig()}`, SECRET, at],
    expect: { reason: 'malformed_header', message: /no t=/ },
  },
  {
    name: 't without =',
    args: [BODY, `t,v1=${sig()}`, SECRET, at],
    expect: { reason: 'malformed_header' },
  },
  {
    name: 'two t',
    args: [BODY, `t=${NOW_SECONDS},t=${NOW_SECONDS},v1=${sig()}`, SECRET, at],
    expect: { reason: 'malformed_header', message: /more than one t=/ },
  },
  {
    name: 'no v1',
    args: [BODY, `t=${NOW_SECONDS}`, SECRET, at],
    expect: { reason: 'malformed_header', message: /no v1=/ },
  },
  {
    name: 'only another scheme (v0)',
    args: [BODY, `t=${NOW_SECONDS},v0=${sig()}`, SECRET, at],
    expect: { reason: 'malformed_header', message: /no v1=/ },
  },
  {
    name: 'v1 not hex',
    args: [BODY, `t=${NOW_SECONDS},v1=${'z'.repeat(64)}`, SECRET, at],
    expect: { reason: 'malformed_header', message: /64 hex digits/ },
  },
  {
    name: 'v1 truncated',
    args: [BODY, `t=${NOW_SECONDS},v1=${sig().slice(0, 62)}`, SECRET, at],
    expect: { reason: 'malformed_header' },
  },
  {
    name: 'several v1, the valid one last',
    args: [BODY, header(NOW_SECONDS, flipHex(sig()), 'nothex', sig()), SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'several v1, the valid one first',
    args: [BODY, header(NOW_SECONDS, sig(), flipHex(sig())), SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'several v1, none valid',
    args: [BODY, header(NOW_SECONDS, flipHex(sig()), flipHex(sig(), 5)), SECRET, at],
    expect: { reason: 'no_matching_signature' },
  },
  {
    name: 'upper-case hex',
    args: [BODY, header(NOW_SECONDS, sig().toUpperCase()), SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'spaces after commas and unknown elements',
    args: [BODY, ` t=${NOW_SECONDS}, v0=abc , v1=${sig()} ,x`, SECRET, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'header as a node:http string array',
    args: [BODY, [`t=${NOW_SECONDS}`, `v1=${sig()}`], SECRET, at],
    expect: { id: 'evt_1' },
  },
  // Missing header.
  ...([undefined, null, '', '  ', []] as const).map(
    (value): Case => ({
      name: `missing header (${JSON.stringify(value)})`,
      args: [BODY, value, SECRET, at],
      expect: { reason: 'missing_header', message: /x-service-signature/ },
    }),
  ),
  // Secrets.
  {
    name: 'several secrets, one valid',
    args: [BODY, header(), ['whsec_new', SECRET], at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'several secrets, none valid',
    args: [BODY, header(), ['whsec_new', 'whsec_old'], at],
    expect: { reason: 'no_matching_signature' },
  },
  {
    name: 'several secrets and several v1',
    args: [BODY, header(NOW_SECONDS, sig(NOW_SECONDS, BODY, 'whsec_new'), sig()), ['whsec_old', SECRET], at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'secret with a trailing newline',
    args: [BODY, header(), `${SECRET}\n`, at],
    expect: { reason: 'no_matching_signature', message: /leading or trailing whitespace/ },
  },
  {
    name: 'secret with leading spaces, in a list',
    args: [BODY, header(), ['whsec_new', `  ${SECRET}`], at],
    expect: { reason: 'no_matching_signature', message: /leading or trailing whitespace/ },
  },
  {
    name: 'a secret that really has whitespace is used as given, not trimmed',
    args: [BODY, header(NOW_SECONDS, sig(NOW_SECONDS, BODY, ` ${SECRET}\n`)), ` ${SECRET}\n`, at],
    expect: { id: 'evt_1' },
  },
  {
    name: 'trimmed secret against a whitespace secret: no whitespace hint',
    args: [BODY, header(NOW_SECONDS, sig(NOW_SECONDS, BODY, ` ${SECRET}\n`)), SECRET, at],
    expect: { reason: 'no_matching_signature', message: /^(?!.*whitespace)/ },
  },
  ...[undefined, null, '', ' \n', [], [''], [SECRET, ' '], 42].map(
    (secret): Case => ({
      name: `missing secret (${JSON.stringify(secret)})`,
      args: [BODY, header(), untyped(secret), at],
      expect: { reason: 'missing_secret', message: /environment variable/ },
    }),
  ),
  // Not a raw body.
  {
    name: 'a parsed object',
    args: [untyped(JSON.parse(BODY)), header(), SECRET, at],
    expect: { reason: 'body_not_raw', message: /parsed object.*express\.raw/ },
  },
  {
    name: 'undefined body (no body parser ran)',
    args: [untyped(undefined), header(), SECRET, at],
    expect: { reason: 'body_not_raw', message: /The body is undefined/ },
  },
  ...[null, 42, true, [1, 2]].map(
    (body): Case => ({
      name: `body ${JSON.stringify(body)}`,
      args: [untyped(body), header(), SECRET, at],
      expect: { reason: 'body_not_raw' },
    }),
  ),
  // Only after the signature holds: JSON.
  ...['not json', '', '[1]', 'null', '"text"', '{"id":"evt_1"}', '{"event":1}'].map(
    (body): Case => ({
      name: `signed but not an envelope: ${JSON.stringify(body)}`,
      args: [body, header(NOW_SECONDS, sig(NOW_SECONDS, body)), SECRET, at],
      expect: { reason: 'invalid_json', message: /signature is valid/ },
    }),
  ),
  {
    name: 'unknown event type comes through',
    args: [
      JSON.stringify(envelope({ event: 'account.renamed', data: { name: 'x' } })),
      header(
        NOW_SECONDS,
        sig(NOW_SECONDS, JSON.stringify(envelope({ event: 'account.renamed', data: { name: 'x' } }))),
      ),
      SECRET,
      at,
    ],
    expect: { id: 'evt_1' },
  },
];

function check(outcome: Outcome, expected: Case['expect']): void {
  if ('id' in expected) {
    expect(outcome).toMatchObject({ ok: { id: expected.id } });
    return;
  }
  expect(outcome).toMatchObject({ reason: expected.reason });
  if ('message' in outcome) {
    if (expected.message) expect(outcome.message).toMatch(expected.message);
    expect(outcome.message).not.toContain('SENTINEL'); // the secret never appears
  }
}

describe.each([
  ['verifyWebhook', async (...args: Case['args']) => syncOutcome(...args)],
  ['verifyWebhookAsync', asyncOutcome],
])('%s', (_, run) => {
  test.each(cases)('$name', async ({ args, expect: expected }) => {
    check(await run(...args), expected);
  });
});

test('the sync and async paths agree on every case', async () => {
  for (const { args } of cases) {
    const [sync, async] = [syncOutcome(...args), await asyncOutcome(...args)];
    expect(async, JSON.stringify(args[1])).toEqual(sync);
  }
});

test('the sync verifier throws synchronously and the async one only rejects', async () => {
  expect(() => verifyWebhook(BODY, undefined, SECRET)).toThrow(WebhookVerificationError);
  const pending = verifyWebhookAsync(BODY, undefined, SECRET);
  await expect(pending).rejects.toThrow(WebhookVerificationError);
});

test('the returned event is the parsed body', () => {
  const body = JSON.stringify(
    envelope({ event: 'transaction.payout_completed', data: { transactionId: 'txn_1' } }),
  );
  expect(verifyWebhook(body, header(NOW_SECONDS, sig(NOW_SECONDS, body)), SECRET, at)).toEqual(
    JSON.parse(body),
  );
});

test('the error has a name, a reason and an instanceof', () => {
  try {
    verifyWebhook(BODY, 'garbage', SECRET, at);
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'WebhookVerificationError', reason: 'malformed_header' });
  }
});

describe('signWebhook', () => {
  test('reproduces the known-answer vector', () => {
    const signed = signWebhook({ payload: KAT.body, secret: KAT.secret, timestamp: KAT.t });
    expect(signed).toEqual({ signature: `t=${KAT.t},v1=${KAT.v1}`, body: KAT.body, timestamp: KAT.t });
  });

  test('serialises an object payload and signs that exact text', () => {
    const payload = envelope();
    const signed = signWebhook({ payload, secret: SECRET, timestamp: new Date(NOW + 500) });
    expect(signed.body).toBe(JSON.stringify(payload));
    expect(signed.timestamp).toBe(NOW_SECONDS);
    expect(signed.signature).toBe(`t=${NOW_SECONDS},v1=${sig(NOW_SECONDS, signed.body)}`);
  });

  test('defaults the timestamp to now, and verifies with the default clock', async () => {
    const before = Math.floor(Date.now() / 1000);
    const signed = signWebhook({ payload: envelope(), secret: SECRET });
    expect(signed.timestamp).toBeGreaterThanOrEqual(before);
    expect(verifyWebhook(signed.body, signed.signature, SECRET).id).toBe('evt_1');
    expect((await verifyWebhookAsync(signed.body, signed.signature, SECRET)).id).toBe('evt_1');
  });

  test.each<[string, Parameters<typeof signWebhook>[0], RegExp]>([
    ['milliseconds', { payload: '{}', secret: SECRET, timestamp: NOW }, /looks like milliseconds/],
    ['a fraction', { payload: '{}', secret: SECRET, timestamp: 1.5 }, /whole seconds/],
    ['a negative time', { payload: '{}', secret: SECRET, timestamp: -1 }, /whole seconds/],
    ['an empty secret', { payload: '{}', secret: '' }, /non-empty secret/],
    ['a payload that is not JSON', { payload: () => 1, secret: SECRET }, /does not serialise/],
  ])('refuses %s', (_, input, message) => {
    expect(() => signWebhook(input)).toThrow(message);
  });
});

test('accepts every body form the types allow', () => {
  const forms: WebhookBody[] = [BODY, bytes(BODY), Buffer.from(BODY), bytes(BODY).buffer as ArrayBuffer];
  for (const body of forms) expect(verifyWebhook(body, header(), SECRET, at).id).toBe('evt_1');
});

test('a header array holding something other than strings is refused with the library error', async () => {
  // Found by the property test: joining it ran the object's own toString and threw a TypeError.
  const hostile = [{ toString: 0 }] as unknown as string[];
  expect(() => verifyWebhook(BODY, hostile, SECRET, at)).toThrow(WebhookVerificationError);
  await expect(verifyWebhookAsync(BODY, hostile, SECRET, at)).rejects.toMatchObject({
    reason: 'missing_header',
  });
});

describe('arbitrary and tampered input, sync and async alike', () => {
  // Garbage in never gives anything but the library's own error, and never a false accept; tampering with a signed
  // message is always caught; and the sync and async paths agree on every input.

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
    fc.record({
      kind: fc.constant('body' as const),
      index: fc.nat(),
      delta: fc.integer({ min: 1, max: 255 }),
    }),
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
      fc.asyncProperty(
        payloadArb,
        fc.integer({ min: -300, max: 300 }),
        mutation,
        async (payload, skew, m) => {
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
        },
      ),
      { numRuns: RUNS },
    );
  }, 60_000);
});
