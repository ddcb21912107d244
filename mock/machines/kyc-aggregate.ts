/**
 * The KYC aggregate status (spec 2.7, 3.3) as a pure function. Steps move `pending` to `in_progress`;
 * only refresh moves `in_progress` to `verified` (level `basic`); a PEP declaration rejects at once, and
 * nothing leaves `rejected`.
 */
import type { KycRecord, KycStatus } from '../state/kyc.js';
import { findTransition, type Transition } from './transition-table.js';

/** A level and status pair (what refresh and `user.kyc_updated` report). */
export type KycLevelStatus = Pick<KycRecord, 'level' | 'status'>;

/** What the steps say, read from the KYC record. */
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
 */
export type KycAggregateEvent =
  | { type: 'recompute'; facts: KycFacts }
  | { type: 'refresh'; facts: KycFacts }
  | { type: 'pep_declared' };

/** Spec 2.7 rule 4: a verified bank account, and Aadhaar and PAN (Indian users) or a passport (others). */
function requirementsMet(facts: KycFacts): boolean {
  const identity = facts.indian ? facts.aadhaar && facts.pan : facts.passport;
  return identity && facts.bank;
}

/** Conditions on a row of the KYC aggregate table, in the words the diagram shows. */
export type KycCondition = 'every requirement met' | 'a step done' | 'no step done';

/**
 * The aggregate status (spec 2.7, 3.3) as the rows `kycAggregate` looks the next status up in (and the diagram in
 * docs/diagrams/ is drawn from). Rows are tried in order; `rejected` has none, so nothing leaves it.
 */
export const KYC_AGGREGATE_TRANSITIONS: readonly Transition<
  KycStatus,
  KycAggregateEvent['type'],
  KycCondition
>[] = [
  { from: ['pending', 'in_progress', 'verified'], event: 'pep_declared', to: 'rejected' },
  // Only a refresh verifies (3.3); a verified user is never downgraded, and a refresh may lift basic to enhanced.
  { from: ['pending', 'in_progress'], event: 'refresh', when: 'every requirement met', to: 'verified' },
  { from: ['verified'], event: 'refresh', to: 'verified' },
  { from: ['verified'], event: 'recompute', to: 'verified' },
  { from: ['pending', 'in_progress'], event: 'recompute', when: 'a step done', to: 'in_progress' },
  { from: ['pending', 'in_progress'], event: 'refresh', when: 'a step done', to: 'in_progress' },
  { from: ['pending', 'in_progress'], event: 'recompute', when: 'no step done', to: 'pending' },
  { from: ['pending', 'in_progress'], event: 'refresh', when: 'no step done', to: 'pending' },
];

/**
 * The next level and status; the input is not changed. The level is `none` until verified, then `enhanced`
 * when the extended profile is complete and `basic` otherwise.
 */
export function kycAggregate(current: KycLevelStatus, event: KycAggregateEvent): KycLevelStatus {
  const facts = event.type === 'pep_declared' ? undefined : event.facts;
  const row = findTransition(KYC_AGGREGATE_TRANSITIONS, current.status, event.type, (when) => {
    if (!facts) return false;
    if (when === 'every requirement met') return requirementsMet(facts);
    return when === 'a step done' ? facts.steps.length > 0 : facts.steps.length === 0;
  });
  if (!row) return current;
  if (row.to !== 'verified') return { level: 'none', status: row.to };
  // A recompute of a verified user keeps its level; a refresh reads it from the extended profile.
  if (event.type === 'recompute') return current;
  return { level: facts?.extendedComplete ? 'enhanced' : 'basic', status: 'verified' };
}
