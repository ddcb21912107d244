/**
 * Drives the real `PayoutClient` against a fresh mock per test, with every error body checked against the
 * shared error schemas.
 */
import { expect } from 'vitest';
import type { MockService } from '../../../../mock/index.js';
import { APIError, PayoutClient } from '../../../../src/index.js';
import { ErrorBodyA, ErrorBodyB } from '../../../../src/schemas/common.js';
import { mockServer } from '../../support.js';

export const ASHA = { mobile: '9876543210', email: 'asha@example.com', name: 'Asha Rao' } as const;
export const DEVICE = 'device-fp-1';
/** A bank account in ASHA's name at an Indian branch. */
export const BANK = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };

/** What `use()` gives: a fresh service, a client on it and the user it created. */
export interface KycUser {
  service: MockService;
  client: PayoutClient;
  userId: string;
}

/**
 * `use()` gives a fresh service, a client on it and a created user, on the file's one MSW server (`mock`, or a new
 * `mockServer`): a second server listening at once would intercept the same requests and find their bodies read.
 */
export function kycServer(mock: ReturnType<typeof mockServer> = mockServer()) {
  return {
    server: mock.server,
    async use(user: { mobile: string; email?: string; name?: string } = ASHA): Promise<KycUser> {
      const { service } = mock.use();
      const client = new PayoutClient({
        apiKey: service.sandboxKey,
        baseUrl: service.baseUrl,
        maxRetries: 0,
      });
      const { userId } = await client.users.create(user);
      return { service, client, userId };
    },
  };
}

/** Passes the document-locker route for the user: a session opened and approved, which verifies Aadhaar and PAN. */
export async function passDigilocker({ service, client, userId }: KycUser): Promise<void> {
  const session = await client.kyc.digilocker.init(userId);
  service.helpers.digilocker.complete({ clientId: session.clientId, outcome: 'approve' });
}

/** The APIError a call failed with, its body checked against shape A or B. */
export async function failure(
  call: PromiseLike<unknown>,
  expected: { status: number; shape: 'A' | 'B'; error: string; code?: string },
): Promise<APIError> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(APIError);
  const error = caught as APIError;
  expect(error.status).toBe(expected.status);
  const schema = expected.shape === 'A' ? ErrorBodyA : ErrorBodyB;
  const parsed = schema.safeParse(error.body);
  expect(parsed.success, JSON.stringify(error.body)).toBe(true);
  expect(error.error).toBe(expected.error);
  if (expected.shape === 'A') expect((error.body as { code: string }).code).toBe(expected.code);
  else expect(error.body).not.toHaveProperty('code');
  // The client reads both shapes into one spelling of the identifier (7.1, 7.3).
  if (expected.code) expect(error.code).toBe(expected.code);
  return error;
}

/** The refusal of a step the user has already passed: 409, shape A, ALREADY_VERIFIED (7.3, 7.4). */
export function alreadyVerified(call: PromiseLike<unknown>): Promise<APIError> {
  return failure(call, { status: 409, shape: 'A', error: 'Conflict', code: 'ALREADY_VERIFIED' });
}

/** The `user.kyc_updated` events recorded for a user, oldest first. */
export function kycEvents(service: MockService, userId: string) {
  return Object.values(service.state.webhooks.byId)
    .filter((e) => e.eventType === 'user.kyc_updated' && e.envelope.data.userId === userId)
    .map((e) => e.envelope.data);
}

/** A tiny valid PDF, base64. */
export const PDF_BASE64 = Buffer.from('%PDF-1.4\n% passport scan\n').toString('base64');
