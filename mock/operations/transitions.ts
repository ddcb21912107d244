/**
 * Transitions in the journal: every operation that moves a stored resource (a KYC step, the KYC aggregate, a
 * session, an upload, a sweep) notes it here, so `mock.journal.entries({ type: 'transition', userId })` shows a
 * user's whole path. Transactions note theirs in `move` (operations/transactions.ts).
 */
import type { Explanation } from '../engine/explain.js';
import type { ServiceInternals } from '../engine/internals.js';
import type { TransitionDraft } from '../engine/journal.js';
import type { KycRecord } from '../state/kyc.js';
import { defined } from '../state/records.js';
import type { OtpChannel } from '../state/verification.js';

/** Notes a transition on the service's stream. */
export function recordTransition(
  mock: Pick<ServiceInternals, 'state' | 'stream'>,
  draft: TransitionDraft,
): void {
  mock.stream.emit({ type: 'transition', state: mock.state, transition: defined(draft) });
}

/**
 * The steps of a user's verification a transition names (`kyc-step`, with `id` the step): the OTP channels and
 * the steps a KYC record keeps.
 */
export type KycStep =
  | OtpChannel
  | Exclude<keyof KycRecord, 'userId' | 'level' | 'status' | 'updatedAt' | 'isPepRejected'>;

/** Steps a user submits rather than has verified. */
const SUBMITTED: ReadonlySet<KycStep> = new Set(['profile', 'document', 'declaration']);

/**
 * Notes that a step of `userId` is done: `unverified → verified` (`missing → submitted` for the profile, the
 * document and the declaration). `trigger` is what did it: a route (`POST /kyc/bank/verify`) or a helper.
 */
export function recordStep(
  mock: ServiceInternals,
  userId: string,
  step: KycStep,
  trigger: string,
  explanation?: Explanation,
): void {
  const submitted = SUBMITTED.has(step);
  recordTransition(mock, {
    resource: 'kyc-step',
    id: step,
    from: submitted ? 'missing' : 'unverified',
    to: submitted ? 'submitted' : 'verified',
    trigger,
    userId,
    explanation,
  });
}

/** Notes a move of a document-locker or face session (machines with a diagram of the same name). */
export function recordSession(
  mock: ServiceInternals,
  machine: 'digilocker-session' | 'face-session',
  session: { userId: string; status: string } & ({ clientId: string } | { sessionId: string }),
  to: string,
  trigger: string,
  explanation?: Explanation,
): void {
  const id = 'clientId' in session ? session.clientId : session.sessionId;
  recordTransition(mock, {
    resource: machine,
    id,
    machine,
    from: session.status,
    to,
    trigger,
    userId: session.userId,
    explanation,
  });
}

/** Notes a move of a transaction's rate attribution or sweep (`id` is the transaction's). */
export function recordTxnPart(
  mock: ServiceInternals,
  txn: { id: string; userId: string },
  resource: 'attribution' | 'sweep',
  move: Pick<TransitionDraft, 'from' | 'to' | 'trigger' | 'explanation'>,
): void {
  const { from, to, trigger, explanation } = move;
  const { id, userId } = txn;
  recordTransition(mock, { resource, id, from, to, trigger, userId, transactionId: id, explanation });
}
