/**
 * Completing a document-locker session as its user would on the consent page (what the hosted page calls).
 */
import type { DigilockerAadhaar } from '../../src/schemas/kyc/digilocker.js';
import { MockHelperError } from '../engine/errors.js';
import type { ServiceInternals } from '../engine/internals.js';
import { answerDigilocker } from '../operations/kyc/digilocker.js';
import type { DigilockerSessionRecord } from '../state/kyc.js';
import { refuse, userOf } from './lookup.js';

/** Input of `helpers.digilocker.complete`: approve or deny a document-locker session as its user would. */
export interface DigilockerCompletion {
  clientId: string;
  /** `approve`: VERIFIED with the Aadhaar and PAN data; `deny`: FAILED. */
  outcome: 'approve' | 'deny';
  /** Overrides of the Aadhaar data (default: the user's name, a sample address). */
  aadhaar?: Partial<DigilockerAadhaar>;
  /** Overrides of the PAN data (default `SANDBOX_KYC.digilockerPan` with the Aadhaar name). */
  pan?: { number?: string; name?: string };
}

export function digilockerHelpers(mock: ServiceInternals) {
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
      const session: DigilockerSessionRecord | undefined = mock.state.kyc.digilockerSessions[input.clientId];
      if (!session) throw new MockHelperError(`No document-locker session ${input.clientId} in this mock`);
      const user = userOf(mock, session.userId);
      const t = answerDigilocker(mock, user, session, input, {
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
