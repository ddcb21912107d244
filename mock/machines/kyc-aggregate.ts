/**
 * The KYC aggregate status (spec 2.7, 3.3) as a pure function. Steps move `pending` to `in_progress`;
 * only refresh moves `in_progress` to `verified` (level `basic`); a PEP declaration rejects at once, and
 * nothing leaves `rejected`.
 */
import type { KycLevel, KycStatus } from '../state/kyc.js';

/**
 * A level and status pair (what refresh and `user.kyc_updated` report).
 * @example
 * const pair: KycLevelStatus = { level: 'none', status: 'pending' };
 */
export interface KycLevelStatus {
  level: KycLevel;
  status: KycStatus;
}

/**
 * What the steps say, read from the KYC record.
 * @example
 * const facts: KycFacts = { steps: ['aadhaar'], indian: true, aadhaar: true, pan: false, passport: false, bank: false, extendedComplete: false };
 */
export interface KycFacts {
  /** Names of the steps completed (document locker, Aadhaar, PAN, passport, face, UPI, bank). */
  steps: string[];
  /** Indian users need Aadhaar and PAN; others a passport (docs/assumptions.md). */
  indian: boolean;
  aadhaar: boolean;
  pan: boolean;
  passport: boolean;
  bank: boolean;
  /** Profile, document and a non-PEP declaration all submitted (extended status `complete`). */
  extendedComplete: boolean;
}

/**
 * `recompute` follows a step; `refresh` is `POST /kyc/refresh`; `pep_declared` a declaration with `isPep`.
 * @example
 * const event: KycAggregateEvent = { type: 'refresh', facts };
 */
export type KycAggregateEvent =
  | { type: 'recompute'; facts: KycFacts }
  | { type: 'refresh'; facts: KycFacts }
  | { type: 'pep_declared' };

/**
 * Spec 2.7 rule 4: a verified bank account, and Aadhaar and PAN (Indian users) or a passport (others).
 * @example
 * requirementsMet(facts); // false until the bank is verified
 */
export function requirementsMet(facts: KycFacts): boolean {
  const identity = facts.indian ? facts.aadhaar && facts.pan : facts.passport;
  return identity && facts.bank;
}

/** Steps of 2.7 rule 4 still missing, by block name. */
export function missingRequirements(facts: KycFacts): string[] {
  const wanted: [string, boolean][] = facts.indian
    ? [
        ['aadhaar', facts.aadhaar],
        ['pan', facts.pan],
      ]
    : [['passport', facts.passport]];
  wanted.push(['bank', facts.bank]);
  return wanted.filter(([, done]) => !done).map(([name]) => name);
}

/**
 * The next level and status; the input is not changed.
 * @example
 * kycAggregate({ level: 'none', status: 'in_progress' }, { type: 'refresh', facts }); // { level: 'basic', status: 'verified' } when met
 */
export function kycAggregate(current: KycLevelStatus, event: KycAggregateEvent): KycLevelStatus {
  if (current.status === 'rejected') return current;
  if (event.type === 'pep_declared') return { level: 'none', status: 'rejected' };
  const { facts } = event;
  const enhancedOrBasic: KycLevel = facts.extendedComplete ? 'enhanced' : 'basic';
  if (current.status === 'verified') {
    // A verified user is never downgraded by a later step; refresh may lift basic to enhanced.
    return event.type === 'refresh' ? { level: enhancedOrBasic, status: 'verified' } : current;
  }
  if (event.type === 'refresh' && requirementsMet(facts)) {
    return { level: enhancedOrBasic, status: 'verified' };
  }
  return { level: 'none', status: facts.steps.length > 0 ? 'in_progress' : 'pending' };
}
