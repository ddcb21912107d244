/**
 * Lifecycles followed (spec 2.4, 3.1, 3.2, 4.4, 4.9, 8 Idempotency): what a create answers reads back and is
 * listed; what has expired or been cancelled refuses what the spec refuses, for good; and every keyed POST
 * replayed with its key answers the same, marked `Idempotent-Replayed: true`. Each scenario records the rule as
 * a named step, so a target that breaks it is named by the rule; the wire exchanges are compared as any
 * scenario's.
 */
import { isDeepStrictEqual } from 'node:util';
import { objectOf, stringField } from '../../state/records.js';
import type { Scenario, ScenarioTarget } from '../types.js';
import {
  type Answer,
  answerOf,
  call,
  declaration,
  newUser,
  order,
  passportUpload,
  REDIRECT,
  verifiedUser,
} from './support.js';

const dataOf = (answer: Answer) => objectOf(objectOf(answer.body)?.data);

/**
 * Sends `body` to `path` twice with one key and records what the replay answered: its status and error
 * identifier, its `Idempotent-Replayed` header, and whether its body is the first answer's.
 */
async function replayed(t: ScenarioTarget, label: string, path: string, body?: unknown): Promise<Answer> {
  const key = crypto.randomUUID();
  const first = await call(t, 'POST', path, body, key);
  const again = await call(t, 'POST', path, body, key);
  t.step(`${label} replayed with its key`, {
    first: answerOf(first),
    replay: answerOf(again),
    'Idempotent-Replayed': again.replayed,
    'same body': isDeepStrictEqual(first.body, again.body),
  });
  return first;
}

/** Reads `id` and records what the read says of the fields the create was given and answered. */
async function readBack(t: ScenarioTarget, id: string, sent: ReturnType<typeof order>): Promise<void> {
  const byId = dataOf(await call(t, 'GET', `/v2/transactions/${encodeURIComponent(id)}`));
  const transaction = objectOf(byId?.transaction);
  t.step('the created transaction reads back by its ID', {
    transactionId: stringField(transaction, 'id') === id || stringField(byId, 'transactionId') === id,
    partnerReference: stringField(transaction, 'partnerReference') === sent.partnerReference,
  });
  const byReference = dataOf(
    await call(t, 'GET', `/v2/transactions/${encodeURIComponent(sent.partnerReference)}`),
  );
  t.step('it reads back by its partnerReference', isDeepStrictEqual(byReference, byId));
  const activity = await call(t, 'GET', '/v2/account/activity?limit=50');
  const items = objectOf(activity.body)?.data;
  const listed = (Array.isArray(items) ? items : []).map(objectOf).find((item) => item?.id === id);
  t.step('the activity lists it, as created', {
    listed: listed !== undefined,
    depositAsset: listed?.depositAsset === sent.asset,
    depositNetwork: listed?.depositNetwork === sent.network,
  });
}

/** The lifecycle scenarios. */
export const LIFECYCLE_SCENARIOS: Scenario[] = [
  {
    id: 'lifecycle.replays',
    title: 'Every keyed POST a new user takes, replayed with its key, answers the same',
    spec: '8 Idempotency, 7.5',
    tier: 'creates',
    async run(t) {
      const created = await replayed(t, 'POST /v2/users', '/v2/users', {
        mobile: t.newMobile(),
        email: 'asha.rao@example.com',
        deviceId: t.name('device'),
      });
      const userId = stringField(dataOf(created), 'userId');
      if (userId === undefined) throw new Error('the user create answered no userId: nothing to replay on');
      const user = `/v2/users/${encodeURIComponent(userId)}`;
      const device = t.name('device');
      const steps: [string, unknown][] = [
        ['verify/mobile/send', undefined],
        ['verify/email/send', undefined],
        ['kyc/refresh', undefined],
        ['kyc/digilocker/init', { redirectUrl: REDIRECT, deviceId: device }],
        ['kyc/aadhaar/otp/send', { aadhaarNumber: '123412345678', deviceId: device }],
        ['kyc/face/init', { redirectUrl: REDIRECT, deviceId: device }],
        ['kyc/profile', { dateOfBirth: '1988-05-04', nationality: 'IN', city: 'Mumbai', deviceId: device }],
        ['kyc/document/upload-url', passportUpload(device)],
        ['kyc/declaration', declaration(false, device)],
      ];
      for (const [step, body] of steps)
        await replayed(t, `POST /v2/users/:userId/${step}`, `${user}/${step}`, body);
    },
  },
  {
    id: 'lifecycle.transaction-read-back',
    title: 'A keyed transaction create replays, reads back by ID and partnerReference, and is listed',
    spec: '2.4, 2.6, 4.2, 8 Idempotency',
    tier: 'mock-helpers',
    async run(t) {
      const { userId } = await verifiedUser(t, 'a KYC-verified user to transact');
      const sent = order(t, userId);
      const created = await replayed(t, 'POST /v2/transactions', '/v2/transactions', sent);
      const id = stringField(dataOf(created), 'transactionId');
      if (id === undefined) throw new Error('the create answered no transactionId: nothing to read back');
      await readBack(t, id, sent);
    },
  },
  {
    id: 'lifecycle.quote-expiry',
    title: 'An unpaid quote is cancelled after 30 minutes, for good, and frees the user to transact again',
    spec: '3.1, 7.3 PENDING_TRANSACTION_EXISTS, QUOTE_EXPIRED',
    tier: 'mock-helpers',
    async run(t) {
      const { userId, helpers } = await verifiedUser(
        t,
        "moving the mock's clock past the quote's 30 minutes",
      );
      const create = () => call(t, 'POST', '/v2/transactions', order(t, userId));
      const created = await create();
      const id = stringField(dataOf(created), 'transactionId');
      if (id === undefined) throw new Error('the create answered no transactionId: nothing to expire');
      t.step('a second create while the first is active', answerOf(await create()));
      await helpers.clock.advance('1801s');
      const read = objectOf(
        dataOf(await call(t, 'GET', `/v2/transactions/${encodeURIComponent(id)}`))?.transaction,
      );
      t.step('the expired transaction', read?.status);
      t.step('a create once it is cancelled', answerOf(await create()));
    },
  },
  {
    id: 'lifecycle.expired-sessions',
    title: 'An expired face session, Aadhaar OTP and document-locker session refuse, for good',
    spec: '3.2, 4.4, 4.9, 7.3 SESSION_EXPIRED, AADHAAR_OTP_EXPIRED, 8',
    tier: 'mock-helpers',
    async run(t) {
      const helpers = t.needHelpers("reading the Aadhaar OTP and moving the mock's clock past 600 s");
      const userId = await newUser(t);
      const user = `/v2/users/${encodeURIComponent(userId)}`;
      const post = (step: string, body: unknown) => call(t, 'POST', `${user}/${step}`, body);
      const open = async (step: string, body: unknown, field: string) =>
        stringField(dataOf(await post(step, body)), field);
      const face = await open('kyc/face/init', { redirectUrl: REDIRECT }, 'sessionId');
      const aadhaar = await open('kyc/aadhaar/otp/send', { aadhaarNumber: '123412345678' }, 'referenceId');
      const locker = await open('kyc/digilocker/init', { redirectUrl: REDIRECT }, 'clientId');
      if (!face || !aadhaar || !locker) throw new Error('a session was not opened: nothing to expire');
      const { otp } = await helpers.kyc.aadhaarOtp({ referenceId: aadhaar });
      await helpers.clock.advance('601s');
      for (const when of ['after 601 s', 'asked again']) {
        t.step(`face verify ${when}`, answerOf(await post('kyc/face/verify', { sessionId: face })));
        t.step(
          `Aadhaar OTP verify with the right code ${when}`,
          answerOf(await post('kyc/aadhaar/otp/verify', { referenceId: aadhaar, otp })),
        );
        const status = await call(
          t,
          'GET',
          `${user}/kyc/digilocker/status?clientId=${encodeURIComponent(locker)}`,
        );
        t.step(`document-locker status ${when}`, {
          answer: answerOf(status),
          status: dataOf(status)?.status,
        });
      }
    },
  },
];
