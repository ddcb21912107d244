import { describe, expect, it } from 'vitest';
import { type KycFacts, kycAggregate } from '../../../mock/machines/kyc-aggregate.js';

const none: KycFacts = {
  steps: [],
  indian: true,
  aadhaar: false,
  pan: false,
  passport: false,
  bank: false,
  extendedComplete: false,
};
const all: KycFacts = { ...none, steps: ['aadhaar', 'pan', 'bank'], aadhaar: true, pan: true, bank: true };

describe('2.7, 3.3: the aggregate machine', () => {
  it('3.3: pending with no step, in_progress after one; steps never verify', () => {
    const pending = { level: 'none', status: 'pending' } as const;
    expect(kycAggregate(pending, { type: 'recompute', facts: none })).toEqual(pending);
    expect(kycAggregate(pending, { type: 'recompute', facts: all })).toEqual({
      level: 'none',
      status: 'in_progress',
    });
  });

  it('3.3, 2.7 rule 4: only refresh verifies, when Aadhaar, PAN and bank are met (passport for non-Indian users)', () => {
    const current = { level: 'none', status: 'in_progress' } as const;
    expect(kycAggregate(current, { type: 'refresh', facts: all })).toEqual({
      level: 'basic',
      status: 'verified',
    });
    expect(kycAggregate(current, { type: 'refresh', facts: { ...all, bank: false } }).status).toBe(
      'in_progress',
    );
    const foreign = { ...none, steps: ['passport', 'bank'], indian: false, passport: true, bank: true };
    expect(kycAggregate(current, { type: 'refresh', facts: foreign }).status).toBe('verified');
  });

  it('3.3: a PEP declaration rejects from any status, and nothing leaves rejected', () => {
    const rejected = kycAggregate({ level: 'basic', status: 'verified' }, { type: 'pep_declared' });
    expect(rejected).toEqual({ level: 'none', status: 'rejected' });
    expect(kycAggregate(rejected, { type: 'refresh', facts: all })).toEqual(rejected);
  });

  it('2.7: refresh lifts a verified user to enhanced once the extended steps are complete', () => {
    const verified = { level: 'basic', status: 'verified' } as const;
    expect(kycAggregate(verified, { type: 'refresh', facts: { ...all, extendedComplete: true } })).toEqual({
      level: 'enhanced',
      status: 'verified',
    });
  });
});
