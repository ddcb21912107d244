/**
 * What several scenarios (and the probes) do: make a user named with the run's prefix, make one ready to transact
 * (mock helpers), the bodies they send alike, send a body the client would refuse to send, and read an answer as
 * the service gave it.
 */
import type { TransactionCreateRequest } from '../../../src/index.js';
import type { MockHelperCalls } from '../../connect.js';
import { objectOf } from '../../state/records.js';
import { parsed } from '../send.js';
import type { ScenarioTarget } from '../types.js';

/** Where a KYC session sends the user back to. */
export const REDIRECT = 'https://example.com/kyc-done';

/** A small PDF (its magic bytes are what the passport check reads), base64 as spec 4.9 sends it. */
export const PASSPORT_PDF = btoa('%PDF-1.4\n% passport scan\n');

/** A new user (spec 2.3; `POST /v2/users` assumed), its `deviceId` carrying the run's prefix. */
export async function newUser(t: ScenarioTarget): Promise<string> {
  const user = await t.client.users.create({ mobile: t.newMobile(), deviceId: t.name('device') });
  return user.userId;
}

/**
 * A user whose KYC is verified with a verified bank account, made by the mock's helpers, and those helpers; a
 * skip naming `what` needs them on a target without.
 */
export async function verifiedUser(
  t: ScenarioTarget,
  what: string,
): Promise<{ userId: string; helpers: MockHelperCalls }> {
  const helpers = t.needHelpers(what);
  const { userId } = await helpers.users.seedVerified({ mobile: t.newMobile() });
  return { userId, helpers };
}

/** A transaction create of `amount` USDC on polygon, its `partnerReference` named with the run's prefix. */
export function order(
  t: Pick<ScenarioTarget, 'name'>,
  userId: string,
  amount = '100',
): TransactionCreateRequest & { partnerReference: string } {
  return { userId, amount, asset: 'USDC', network: 'polygon', partnerReference: t.name('order') };
}

/** A KYC declaration, accepted, by a salaried user; `isPep` rejects the KYC (spec 4.11). */
export function declaration(isPep: boolean, deviceId: string) {
  return {
    occupation: 'salaried',
    incomeRange: '5l_to_10l',
    isPep,
    declarationAccepted: true,
    deviceId,
  } as const;
}

/** An upload URL's request for a passport PDF of 1 KiB (spec 4.10). */
export function passportUpload(deviceId: string) {
  return {
    documentType: 'passport',
    fileName: 'passport.pdf',
    mimeType: 'application/pdf',
    fileSize: 1024,
    deviceId,
  } as const;
}

/**
 * Sends `body` as is (the client checks requests before sending, and these scenarios are about what the
 * service answers to a bad one); resolves whatever the answer, since the answer is on the wire.
 */
export async function raw(
  t: ScenarioTarget,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  query?: Record<string, string | number>,
): Promise<unknown> {
  return t.refused(t.client.request({ method, path, body, query }));
}

/** An answer as a lifecycle or a probe reads it: status, the replay header, the parsed body. */
export interface Answer {
  status: number;
  replayed: string | null;
  body: unknown;
}

/**
 * Sends a request as the service takes it, through the side's `fetch` (the client gives a write its
 * `Idempotency-Key`, so a transient failure is retried safely), with this `Idempotency-Key` when given.
 */
export async function call(
  t: ScenarioTarget,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  key?: string,
): Promise<Answer> {
  const response = await t.fetch(`${t.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${t.apiKey}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(key ? { 'Idempotency-Key': key } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = parsed(await response.text());
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: answer };
}

/** An answer as the probes compare it: the status, and the error identifier of a refusal. */
export function answerOf({ status, body }: Pick<Answer, 'status' | 'body'>): string {
  const record = objectOf(body);
  const refused = status >= 400 || record?.success === false;
  if (!refused) return String(status);
  // Shape A names the refusal in `code`, shape B (`success: false`) in `error` (spec 7.1).
  const id = record?.success === false ? record.error : (record?.code ?? record?.error);
  return typeof id === 'string' ? `${status} ${id}` : String(status);
}
