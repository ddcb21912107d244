/**
 * The KYC operations routes and helpers share: the user's KYC record, the facts the aggregate is computed from,
 * applying an aggregate event (with its `user.kyc_updated` event), storing a verified step, names on records,
 * masking and the outcomes a test chose. Each step's own operation is in `kyc/` under the spec's name for it.
 */
import { emitEvent } from '../engine/events.js';
import type { Explanation } from '../engine/explain.js';
import type { ServiceInternals } from '../engine/internals.js';
import { nowIso } from '../engine/timers.js';
import {
  type KycAggregateEvent,
  type KycFacts,
  type KycLevelStatus,
  kycAggregate,
} from '../machines/kyc-aggregate.js';
import { SANDBOX_KYC } from '../sandbox-values.js';
import type { BankOutcome, KycRecord, KycSlice, UpiOutcome } from '../state/kyc.js';
import type { MockState } from '../state/mock-state.js';
import type { UserRecord } from '../state/users.js';
import { type KycStep, recordStep, recordTransition } from './transitions.js';

/** The user's KYC record for reading: the stored one, or a blank one that is not stored (a GET changes nothing). */
export function peekKycRecord(state: MockState, userId: string): KycRecord {
  return (
    state.kyc.byUserId[userId] ?? {
      userId,
      level: 'none',
      status: 'pending',
      updatedAt: nowIso(state),
      isPepRejected: false,
    }
  );
}

/** The user's KYC record, created (`none`, `pending`) on first use. */
export function kycRecord(state: MockState, userId: string): KycRecord {
  state.kyc.byUserId[userId] ??= peekKycRecord(state, userId);
  return state.kyc.byUserId[userId];
}

/** The facts of a record for the aggregate machine. */
function kycFacts(record: KycRecord): KycFacts {
  const steps = (['digilocker', 'aadhaar', 'pan', 'passport', 'face', 'upi', 'bank'] as const).filter(
    (step) => record[step] !== undefined,
  );
  return {
    steps,
    // Docs/assumptions.md: Indian unless the extended profile names another nationality.
    indian: (record.profile?.nationality ?? 'IN') === 'IN',
    aadhaar: record.aadhaar !== undefined,
    pan: record.pan !== undefined,
    passport: record.passport !== undefined,
    bank: record.bank !== undefined,
    extendedComplete:
      record.profile !== undefined && record.document !== undefined && record.declaration?.isPep === false,
  };
}

/**
 * Runs the aggregate machine on the record; when level or status changes, stores it and emits
 * `user.kyc_updated` (docs/webhook-events.md). Returns the pair before and after.
 */
export function applyAggregate(
  mock: ServiceInternals,
  user: UserRecord,
  record: KycRecord,
  event: KycAggregateEvent | { type: 'recompute' | 'refresh' },
): { previous: KycLevelStatus; current: KycLevelStatus } {
  const { state } = mock;
  const previous: KycLevelStatus = { level: record.level, status: record.status };
  const full: KycAggregateEvent =
    event.type === 'pep_declared' ? event : { type: event.type, facts: kycFacts(record) };
  const current = kycAggregate(previous, full);
  if (current.level !== previous.level || current.status !== previous.status) {
    Object.assign(record, current, { updatedAt: nowIso(state) });
    recordTransition(mock, {
      resource: 'kyc-aggregate',
      id: user.id,
      machine: 'kyc-aggregate',
      from: previous.status,
      to: current.status,
      trigger: event.type,
      detail: `level ${previous.level} -> ${current.level}`,
      userId: user.id,
      explanation: event.type === 'pep_declared' ? PEP_REJECTION : undefined,
    });
    emitEvent(state, user.accountId, 'user.kyc_updated', { userId: user.id, previous, current });
  }
  return { previous, current };
}

/** The steps whose result makes a user's KYC level (spec 2.7): stored, then the aggregate is recomputed. */
type VerifiedStep = Extract<KycStep, 'aadhaar' | 'pan' | 'passport' | 'face' | 'upi' | 'bank'>;

/**
 * Stores the result of a verified step on the user's record, verified now, notes the step in the journal and
 * recomputes the aggregate (which may emit `user.kyc_updated`). Every verification operation ends here.
 */
export function verifyStep<S extends VerifiedStep>(
  mock: ServiceInternals,
  user: UserRecord,
  step: S,
  result: Omit<NonNullable<KycRecord[S]>, 'verifiedAt'>,
  trigger: string,
  why?: Explanation,
): NonNullable<KycRecord[S]> {
  const record = kycRecord(mock.state, user.id);
  const verified = { ...result, verifiedAt: nowIso(mock.state) } as NonNullable<KycRecord[S]>;
  record[step] = verified;
  recordStep(mock, user.id, step, trigger, why);
  applyAggregate(mock, user, record, { type: 'recompute' });
  return verified;
}

/** `POST /kyc/refresh` (spec 4.5): the aggregate recomputed from the steps on record. */
export function refreshKyc(
  mock: ServiceInternals,
  user: UserRecord,
): { previous: KycLevelStatus; current: KycLevelStatus } {
  return applyAggregate(mock, user, kycRecord(mock.state, user.id), { type: 'refresh' });
}

/** Why a declaration with `isPep: true` rejects KYC (spec 4.11): the journal and `X-Mock-Explain` say it. */
export const PEP_REJECTION: Explanation = {
  rule: 'KYC_REJECTED',
  because:
    'the declaration says isPep: true, and KYC is rejected automatically for a Politically Exposed Person',
  section: '4.11',
  change: 'declare isPep: false; a rejection is final, so use a new user (helpers.seed)',
};

/** The name records are compared with: the Aadhaar name, else the user's name, else the sandbox default. */
export function expectedName(user: UserRecord, record: KycRecord): string {
  return record.aadhaar?.nameOnAadhaar ?? user.name ?? SANDBOX_KYC.defaultName;
}

/** The Aadhaar number behind sample Aadhaar data (the document locker's, a seeded user's): only its mask is shown. */
export const SAMPLE_AADHAAR_NUMBER = '123412341234';

/** `123412341234` → `XXXXXXXX1234` (all but the last four characters masked). */
export function maskTail(value: string, keep = 4): string {
  return `${'X'.repeat(Math.max(0, value.length - keep))}${value.slice(-keep)}`;
}

/** `123412341234` → `XXXX-XXXX-1234`. */
export function maskAadhaar(aadhaarNumber: string): string {
  return `XXXX-XXXX-${aadhaarNumber.slice(-4)}`;
}

/** `ABCDE1234F` → `XXXXX1234X`. */
export function maskPan(pan: string): string {
  return `XXXXX${pan.slice(5, 9)}X`;
}

/** Takes (and forgets) the outcome a test chose for the user's next `step`, if any. */
export function takeOutcome<S extends 'bank' | 'upi'>(
  state: MockState,
  userId: string,
  step: S,
): KycSlice['nextOutcomes'][string][S] {
  const chosen = state.kyc.nextOutcomes[userId];
  const outcome = chosen?.[step];
  if (chosen) delete chosen[step];
  return outcome;
}

/** Chooses the outcome of the user's next bank or UPI verification (`helpers.kyc.chooseOutcome`). */
export function chooseOutcome(
  state: MockState,
  userId: string,
  choice: { step: 'bank'; outcome: BankOutcome } | { step: 'upi'; outcome: UpiOutcome },
): void {
  state.kyc.nextOutcomes[userId] = { ...state.kyc.nextOutcomes[userId], [choice.step]: choice.outcome };
}
