import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AmountUsd,
  assets,
  DeclarationResult,
  DigilockerStatus,
  documentTypes,
  FaceVerification,
  IFSC_PATTERN,
  incomeRanges,
  KycStatus,
  MAX_AMOUNT_USD,
  MAX_DOCUMENT_BYTES,
  MIN_AMOUNT_USD,
  mimeTypes,
  networks,
  occupations,
  openEnum,
  Transaction,
  transactionStatuses,
  UPI_ID_PATTERN,
  UpiVerification,
  WebhookEvent,
  webhookEventStatuses,
} from '../../src/index.js';

describe('AmountUsd', () => {
  it.each(['10', '10.00', '0010', '50000', '50000.000', '123.456789', '49999.99'])('accepts %s', (amount) => {
    expect(AmountUsd.safeParse(amount).success).toBe(true);
  });

  it.each([
    '9.99',
    '9.999999999999999999',
    '50000.000000000000000001',
    '50001',
    '0',
    '-10',
    '+10',
    '1e3',
    '.5',
    '10.',
    ' 10',
    '',
  ])('refuses %s', (amount) => {
    expect(AmountUsd.safeParse(amount).success).toBe(false);
  });

  it('tags the limit issues with the spec identifiers', () => {
    expect(AmountUsd.safeParse('5').error?.issues[0]).toMatchObject({ params: { code: 'AMOUNT_TOO_LOW' } });
    expect(AmountUsd.safeParse('60000').error?.issues[0]).toMatchObject({
      params: { code: 'AMOUNT_TOO_HIGH' },
    });
  });

  it('agrees with exact decimal comparison on any decimal string', () => {
    const decimalString = fc
      .tuple(
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }),
      )
      .map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${fraction}`));
    fc.assert(
      fc.property(decimalString, (amount) => {
        const value = new Decimal(amount);
        const inRange = value.gte(MIN_AMOUNT_USD) && value.lte(MAX_AMOUNT_USD);
        expect(AmountUsd.safeParse(amount).success).toBe(inRange);
      }),
    );
  });
});

describe('enum lists', () => {
  it('are the spec values', () => {
    expect(assets).toEqual(['USDC', 'USDT']);
    expect(networks).toEqual(['polygon', 'ethereum', 'arbitrum', 'base', 'solana']);
    expect(documentTypes).toEqual(['passport', 'driving_license', 'aadhaar', 'voter_id']);
    expect(mimeTypes).toEqual(['image/jpeg', 'image/png', 'image/webp', 'application/pdf']);
    expect(occupations).toHaveLength(9);
    expect(incomeRanges).toEqual([
      'below_5l',
      '5l_to_10l',
      '10l_to_25l',
      '25l_to_50l',
      '50l_to_1cr',
      'above_1cr',
    ]);
    expect(webhookEventStatuses).toEqual(['pending', 'delivered', 'failed']);
    expect(transactionStatuses).toContain('awaiting_funds');
    expect(MAX_DOCUMENT_BYTES).toBe(10485760);
  });

  it('openEnum accepts any string and nothing else', () => {
    const status = openEnum(['a', 'b'] as const);
    expect(status.parse('c')).toBe('c');
    expect(status.safeParse(1).success).toBe(false);
  });
});

describe('patterns', () => {
  it('IFSC: 4 letters, 0, 6 letters or digits', () => {
    expect(['HDFC0001234', 'SBIN0ABC123', 'ICIC0000001'].every((v) => IFSC_PATTERN.test(v))).toBe(true);
    expect(
      ['HDFC1001234', 'HDF00001234', 'HDFC00012345', 'hdfc0001234'].some((v) => IFSC_PATTERN.test(v)),
    ).toBe(false);
  });

  it('UPI ID: username@handle, mobile numbers included', () => {
    expect(
      ['asha@upi', 'asha.rao-1@okhdfcbank', '9876543210@ybl', 'a_b@paytm'].every((v) =>
        UPI_ID_PATTERN.test(v),
      ),
    ).toBe(true);
    expect(
      ['asha', 'a@upi', 'asha@u', 'asha@@upi', 'asha@1bank', 'as ha@upi'].some((v) => UPI_ID_PATTERN.test(v)),
    ).toBe(false);
  });
});

describe('response schemas are forgiving', () => {
  it('keep unknown fields and unknown enum values', () => {
    const event = WebhookEvent.parse({
      id: 'e',
      eventType: 'user.deleted',
      status: 'queued',
      attempts: 0,
      createdAt: 't',
      extra: true,
    });
    expect(event).toMatchObject({ eventType: 'user.deleted', status: 'queued', extra: true });
  });

  it('read a KYC record with blocks lacking verified', () => {
    const record = KycStatus.parse({
      level: 'none',
      status: 'pending',
      digilocker: { status: 'pending' },
      face: {},
    });
    expect(record.digilocker?.verified).toBeUndefined();
  });

  it('read a transaction before its payout exists, and with a null payout', () => {
    const base = {
      transaction: { id: 't', status: 'created', createdAt: 'x' },
      deposit: { network: 'base', asset: 'USDC', address: '0x', expectedAmount: '10' },
      quote: { exchangeRate: 83, grossInr: '830', netInr: '830' },
    };
    expect(Transaction.parse(base).payout).toBeUndefined();
    expect(Transaction.parse({ ...base, payout: null }).payout).toBeNull();
  });
});

describe('variants', () => {
  it('UPI: three outcomes', () => {
    const outcomes = [
      { verified: true, name: 'A', bankName: 'B', nameMatchScore: 90 },
      { verified: false, name: 'A', bankName: 'B', nameMatchScore: 40 },
      { verified: false, name: null, bankName: null, nameMatchScore: null },
    ].map((v) => UpiVerification.parse(v));
    expect(outcomes.map((o) => o.nameMatchScore)).toEqual([90, 40, null]);
    expect(
      UpiVerification.safeParse({ verified: true, name: null, bankName: null, nameMatchScore: null }).success,
    ).toBe(false);
  });

  it('digilocker: Verified needs aadhaar; Pending, Expired, Failed do not', () => {
    expect(DigilockerStatus.safeParse({ status: 'VERIFIED', verified: true }).success).toBe(false);
    for (const status of ['PENDING', 'EXPIRED', 'FAILED']) {
      expect(DigilockerStatus.parse({ status, verified: false }).status).toBe(status);
    }
  });

  it('face: verified true or false', () => {
    const scores = { livenessScore: 0, faceMatchScore: 0, isLive: false, faceMatched: false };
    expect(FaceVerification.parse({ verified: false, ...scores }).verified).toBe(false);
  });

  it('declaration: the record or the rejection', () => {
    const rejected = DeclarationResult.parse({ declarationId: 'd', isPep: true, kycStatus: 'rejected' });
    expect(rejected).toMatchObject({ kycStatus: 'rejected' });
    const accepted = DeclarationResult.parse({
      declarationId: 'd',
      occupation: 'student',
      incomeRange: 'below_5l',
      isPep: false,
      submittedAt: 't',
    });
    expect(accepted).not.toHaveProperty('kycStatus');
  });
});
