import { describe, expect, it } from 'vitest';
import { DeclarationRequest } from '../../../src/index.js';

describe('DeclarationRequest', () => {
  const base = {
    occupation: 'other',
    incomeRange: 'below_5l',
    isPep: false,
    declarationAccepted: true,
  } as const;
  it('accepts occupationOther at 100 characters and pepDetails at 500', () => {
    const ok = { ...base, occupationOther: 'x'.repeat(100), isPep: true, pepDetails: 'y'.repeat(500) };
    expect(DeclarationRequest.safeParse(ok).success).toBe(true);
  });
  it('does not send fields it does not know', () => {
    expect(DeclarationRequest.parse({ ...base, occupationOther: 'Artist', extra: 1 })).not.toHaveProperty(
      'extra',
    );
  });
});
