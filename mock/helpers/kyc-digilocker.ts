/**
 * Completing a document-locker session as its user would on the consent page (what the hosted page calls).
 */
import type { DigilockerAadhaar } from '../../src/schemas/kyc/digilocker.js';
import { MockHelperError } from '../engine/errors.js';
import type { MockRuntime } from '../engine/runtime.js';
import { answerDigilocker } from '../operations/kyc/digilocker.js';
import type { DigilockerSessionRecord } from '../state/kyc.js';
import { refuse, userOf } from './kyc-shared.js';

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
     * ```ts
     * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
     * const { clientId } = await client.kyc.digilocker.init(userId);
     * mock.helpers.digilocker.complete({ clientId, outcome: 'approve' }); // the user gave consent
     * ```
     */
    complete(input: DigilockerCompletion): { clientId: string; status: string; redirectUrl?: string } {
      const session: DigilockerSessionRecord | undefined = rt.state.kyc.digilockerSessions[input.clientId];
      if (!session) throw new MockHelperError(`No document-locker session ${input.clientId} in this mock`);
      const user = userOf(rt, session.userId);
      const t = answerDigilocker(rt.state, user, session, input, {
        trigger: 'helpers.digilocker.complete',
        explanation: {
          rule: 'helper.digilocker.complete',
          because: `helpers.digilocker.complete gave the user's answer: ${input.outcome}`,
          section: '3.2',
          change: input.outcome === 'approve' ? "outcome: 'deny'" : "outcome: 'approve' on a new session",
        },
      });
      if (!t.ok) {
        refuse(
          `document-locker session ${session.clientId}`,
          input.outcome,
          t.state,
          t.allowed,
          'Start a new session with POST /kyc/digilocker/init.',
          '3.2',
        );
      }
      return { clientId: session.clientId, status: t.next.status, redirectUrl: session.redirectUrl };
    },
  };
}
