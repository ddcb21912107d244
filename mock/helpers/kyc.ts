/**
 * KYC test helpers (Stripe test-helper style), plain data in and out: complete or fail a document-locker
 * or face session (what the hosted pages call), read the Aadhaar OTP that was "sent", and upload a file to
 * a presigned URL without HTTP. A transition that does not fit the session's state throws
 * `MockTransitionError`.
 */
import type { DigilockerAadhaar } from '../../src/schemas/kyc/digilocker.js';
import { MockHelperError, MockTransitionError } from '../core/errors.js';
import type { MockRuntime } from '../core/runtime.js';
import { applyAggregate, expectedName, kycRecord } from '../handlers/kyc/shared.js';
import { storeUpload } from '../handlers/kyc/storage.js';
import { digilockerTransition } from '../machines/digilocker-session.js';
import { faceTransition } from '../machines/face-session.js';
import { SANDBOX_KYC } from '../sandbox-values.js';
import type { DigilockerSessionRecord, FaceSessionRecord } from '../state/kyc.js';
import type { UserRecord } from '../state/users.js';

/**
 * Input of `helpers.digilocker.complete`: approve or deny a document-locker session as its user would.
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService, MockTransitionError } from 'inr-payouts/mock';
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const headers = { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' };
 * const [user] = mock.helpers.seed({ users: [{ mobile: '9876543210', name: 'Asha Rao' }] }).users;
 * const base = `${mock.baseUrl}/v2/users/${user?.userId}/kyc/digilocker`;
 * const init = await fetch(`${base}/init`, { method: 'POST', headers, body: '{}' });
 * const { data } = await init.json();
 *
 * mock.helpers.digilocker.complete({ clientId: data.clientId, outcome: 'approve' });
 * const status = await (await fetch(`${base}/status?clientId=${data.clientId}`, { headers })).json();
 * if (status.data.status !== 'VERIFIED') throw new Error('approved sessions are VERIFIED');
 * try {
 *   mock.helpers.digilocker.complete({ clientId: data.clientId, outcome: 'deny' });
 *   throw new Error('unreachable');
 * } catch (error) {
 *   if (!(error instanceof MockTransitionError)) throw error; // it is VERIFIED, allowed only from PENDING
 * }
 * server.close();
 * ```
 */
export interface DigilockerCompletion {
  clientId: string;
  /** `approve`: VERIFIED with the Aadhaar and PAN data; `deny`: FAILED. */
  outcome: 'approve' | 'deny';
  /** Overrides of the Aadhaar data (default: the user's name, a sample address). */
  aadhaar?: Partial<DigilockerAadhaar>;
  /** Overrides of the PAN data (default `SANDBOX_KYC.digilockerPan` with the Aadhaar name). */
  pan?: { number?: string; name?: string };
}

/**
 * Input of `helpers.face.complete`: run the liveness check of a face session with the scores given.
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from 'inr-payouts/mock';
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const headers = { Authorization: `Bearer ${mock.sandboxKey}`, 'Content-Type': 'application/json' };
 * const [user] = mock.helpers.seed({ users: [{ mobile: '9876543210' }] }).users;
 * const base = `${mock.baseUrl}/v2/users/${user?.userId}/kyc/face`;
 * const body = JSON.stringify({ redirectUrl: 'https://partner.test/face-done' });
 * const { data } = await (await fetch(`${base}/init`, { method: 'POST', headers, body })).json();
 *
 * mock.helpers.face.complete({ sessionId: data.sessionId, outcome: 'fail', livenessScore: 0.79 });
 * const verify = await fetch(`${base}/verify`, { method: 'POST', headers, body: '{}' });
 * const result = await verify.json();
 * if (result.data.verified !== false || result.data.livenessScore !== 0) throw new Error('a failed check scores 0');
 * server.close();
 * ```
 */
export interface FaceCompletion {
  sessionId: string;
  /** `pass` defaults to scores 0.93 / 0.88, `fail` to 0.42 / 0.31. */
  outcome: 'pass' | 'fail';
  livenessScore?: number;
  faceMatchScore?: number;
}

function userOf(rt: MockRuntime, userId: string): UserRecord {
  const user = rt.state.users.byId[userId];
  if (!user) throw new MockHelperError(`No user ${userId} in this mock`);
  return user;
}

function refuse(subject: string, action: string, state: string, allowed: string[], hint: string): never {
  throw new MockTransitionError({ subject, action, state, allowed, hint });
}

/**
 * Document-locker helpers.
 * @example
 * const digilocker = digilockerHelpers(runtime);
 */
export function digilockerHelpers(rt: MockRuntime) {
  return {
    /**
     * Approves or denies a PENDING session as the user would on the consent page; approval records the
     * Aadhaar and PAN (spec 2.7, 4.4). Returns the session and where the page sends the user.
     * @example
     * service.helpers.digilocker.complete({ clientId, outcome: 'approve' });
     */
    complete(input: DigilockerCompletion): { clientId: string; status: string; redirectUrl?: string } {
      const session: DigilockerSessionRecord | undefined = rt.state.kyc.digilockerSessions[input.clientId];
      if (!session) throw new MockHelperError(`No document-locker session ${input.clientId} in this mock`);
      const user = userOf(rt, session.userId);
      const record = kycRecord(rt.state, user.id);
      const name = input.aadhaar?.name ?? expectedName(user, record);
      const event =
        input.outcome === 'approve'
          ? {
              type: 'approve' as const,
              aadhaar: {
                name,
                dob: '1990-01-01',
                gender: 'F',
                address: '12 MG Road, Bengaluru',
                maskedAadhaar: 'XXXX-XXXX-1234',
                pincode: '560001',
                state: 'Karnataka',
                district: 'Bengaluru Urban',
                ...input.aadhaar,
              },
              pan: {
                number: input.pan?.number ?? SANDBOX_KYC.digilockerPan,
                name: input.pan?.name ?? name.toUpperCase(),
              },
            }
          : { type: 'deny' as const, reason: 'The user denied consent' };
      const t = digilockerTransition(session, event, rt.state.clock.now);
      if (!t.ok) {
        refuse(
          `document-locker session ${session.clientId}`,
          input.outcome,
          t.state,
          t.allowed,
          'Start a new session with POST /kyc/digilocker/init.',
        );
      }
      rt.state.kyc.digilockerSessions[session.clientId] = t.next;
      const at = t.next.completedAt ?? new Date(rt.state.clock.now).toISOString();
      if (t.next.status === 'VERIFIED' && t.next.aadhaar && t.next.pan && !record.digilocker) {
        record.digilocker = { verifiedAt: at };
        record.aadhaar ??= {
          maskedNumber: t.next.aadhaar.maskedAadhaar ?? 'XXXX-XXXX-1234',
          nameOnAadhaar: t.next.aadhaar.name,
          verifiedAt: at,
          source: 'digilocker',
        };
        const pan = t.next.pan.number;
        record.pan ??= {
          number: pan,
          maskedNumber: `XXXXX${pan.slice(5, 9)}X`,
          nameOnPan: t.next.pan.name,
          verifiedAt: at,
        };
        applyAggregate(rt.state, user, record, { type: 'recompute' });
      }
      return { clientId: session.clientId, status: t.next.status, redirectUrl: session.redirectUrl };
    },
  };
}

/**
 * Face helpers.
 * @example
 * const face = faceHelpers(runtime);
 */
export function faceHelpers(rt: MockRuntime) {
  return {
    /**
     * Runs the liveness check of a PENDING session as the user would on the face page. The result follows
     * the thresholds (liveness >= 0.8 and face match >= 0.7); `fail` with passing scores is refused.
     * @example
     * service.helpers.face.complete({ sessionId, outcome: 'pass' });
     */
    complete(input: FaceCompletion): { sessionId: string; status: string; redirectUrl: string } {
      const session: FaceSessionRecord | undefined = rt.state.kyc.faceSessions[input.sessionId];
      if (!session) throw new MockHelperError(`No face session ${input.sessionId} in this mock`);
      const pass = input.outcome === 'pass';
      const livenessScore = input.livenessScore ?? (pass ? 0.93 : 0.42);
      const faceMatchScore = input.faceMatchScore ?? (pass ? 0.88 : 0.31);
      const t = faceTransition(
        session,
        { type: 'checked', livenessScore, faceMatchScore },
        rt.state.clock.now,
      );
      if (!t.ok) {
        refuse(
          `face session ${session.sessionId}`,
          input.outcome,
          t.state,
          t.allowed,
          'Initialise a new session with POST /kyc/face/init.',
        );
      }
      if ((t.next.status === 'PASSED') !== pass) {
        throw new MockHelperError(
          `Scores ${livenessScore} / ${faceMatchScore} ${pass ? 'fail' : 'pass'} the thresholds (liveness >= 0.8, face match >= 0.7), so outcome '${input.outcome}' cannot use them`,
        );
      }
      rt.state.kyc.faceSessions[session.sessionId] = t.next;
      return { sessionId: session.sessionId, status: t.next.status, redirectUrl: session.redirectUrl };
    },
  };
}

/**
 * Other KYC helpers.
 * @example
 * const kyc = kycStepHelpers(runtime);
 */
export function kycStepHelpers(rt: MockRuntime) {
  return {
    /**
     * The Aadhaar OTP "sent" for a `referenceId`.
     * @example
     * const { otp } = service.helpers.kyc.aadhaarOtp({ referenceId });
     */
    aadhaarOtp({ referenceId }: { referenceId: string }): {
      otp: string;
      expiresAt: string;
      attempts: number;
    } {
      const session = rt.state.kyc.aadhaarOtps[referenceId];
      if (!session) throw new MockHelperError(`No Aadhaar OTP session ${referenceId} in this mock`);
      return { otp: session.code, expiresAt: session.expiresAt, attempts: session.attempts };
    },
    /**
     * Uploads to a presigned URL without HTTP, with the same checks the storage applies (PUT, signed
     * `Content-Type`, declared size, 300 s life); throws with the storage's reason when refused.
     * @example
     * service.helpers.kyc.upload({ s3Key, contentType: 'application/pdf', size: 2048 });
     */
    upload({ s3Key, contentType, size }: { s3Key: string; contentType: string; size: number }): {
      s3Key: string;
    } {
      const result = storeUpload(rt, s3Key, { method: 'PUT', contentType, size });
      if (!result.ok) throw new MockHelperError(`Upload refused (${result.status}): ${result.reason}`);
      return { s3Key };
    },
  };
}

/**
 * Every KYC helper group, spread into `service.helpers`.
 * @example
 * const groups = kycHelpers(runtime);
 */
export function kycHelpers(rt: MockRuntime) {
  return { digilocker: digilockerHelpers(rt), face: faceHelpers(rt), kyc: kycStepHelpers(rt) };
}
