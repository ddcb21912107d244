/**
 * KYC status, refresh and extended status (spec 2.7, 2.8, 3.3, 4.5). Unverified blocks are just
 * `{ verified: false }` and the document-locker block is `{ status: 'pending' }` until it completes
 * (2.7 rules 1 and 2); fields with no value are omitted (spec 1.3).
 */
import { ENDPOINTS } from '../../../src/endpoints/index.js';
import type { ExtendedStatus, KycStatus } from '../../../src/schemas/kyc/status.js';
import { defineModule } from '../../engine/module.js';
import { route } from '../../engine/route.js';
import { peekKycRecord, refreshKyc } from '../../operations/kyc.js';
import type { KycRecord } from '../../state/kyc.js';
import { pick } from '../../state/records.js';
import { requireUser } from '../shared.js';

/** A step's block: `flag` true with the step's `fields`, or just `flag` false while the step is not on record. */
function block<F extends 'verified' | 'submitted', T extends object, K extends keyof T>(
  flag: F,
  step: T | undefined,
  fields: readonly K[],
): Record<F, boolean> & Partial<Pick<T, K>> {
  const shown = step ? pick(step, fields) : {};
  return { [flag]: step !== undefined, ...shown } as Record<F, boolean> & Partial<Pick<T, K>>;
}

/** The KYC status record (spec 2.7) of a stored record. */
function kycStatusData(record: KycRecord): KycStatus {
  const { digilocker, passport } = record;
  return {
    level: record.level,
    status: record.status,
    digilocker: digilocker
      ? { verified: true, status: 'VERIFIED', completedAt: digilocker.verifiedAt }
      : { status: 'pending' },
    aadhaar: block('verified', record.aadhaar, ['maskedNumber', 'nameOnAadhaar', 'verifiedAt']),
    pan: block('verified', record.pan, ['maskedNumber', 'nameOnPan', 'nameMatchScore', 'verifiedAt']),
    passport: { verified: passport !== undefined },
    // Docs/assumptions.md: the attestation is the verified passport's identity.
    attestation: passport
      ? {
          verified: true,
          docType: 'passport',
          country: passport.nationality,
          issuingCountry: passport.nationality,
          legalName: `${passport.givenName} ${passport.surname}`,
          verifiedAt: passport.verifiedAt,
        }
      : { verified: false },
    face: { verified: record.face !== undefined },
    upi: { verified: record.upi !== undefined },
    bank: block('verified', record.bank, ['maskedAccountNumber', 'bankName', 'ifsc', 'verifiedAt']),
  };
}

/** The extended status (spec 2.8); `missing` lists `profile`, `document`, `declaration` not yet submitted. */
function extendedStatusData(record: KycRecord): ExtendedStatus {
  const { document } = record;
  const missing = (['profile', 'document', 'declaration'] as const).filter((step) => !record[step]);
  return {
    complete: missing.length === 0,
    missing: [...missing],
    isPepRejected: record.isPepRejected,
    profile: block('submitted', record.profile, ['dateOfBirth', 'nationality', 'city', 'submittedAt']),
    document: document
      ? {
          submitted: true,
          documentType: document.documentType,
          fileName: document.fileName,
          verified: true,
          uploadedAt: document.uploadedAt,
        }
      : { submitted: false },
    declaration: block('submitted', record.declaration, [
      'occupation',
      'incomeRange',
      'isPep',
      'submittedAt',
    ]),
  };
}

const getStatus = route(ENDPOINTS['kyc.status'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  return { data: kycStatusData(peekKycRecord(ctx.state, user.id)) };
});

const refresh = route(ENDPOINTS['kyc.refresh'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  const { previous, current } = refreshKyc(ctx.mock, user);
  const moved = previous.status !== current.status || previous.level !== current.level;
  return { data: { previous, current }, message: moved ? 'KYC status updated' : 'KYC status unchanged' };
});

const getExtendedStatus = route(ENDPOINTS['kyc.extendedStatus'], (ctx) => {
  const user = requireUser(ctx, ctx.params.userId);
  return { data: extendedStatusData(peekKycRecord(ctx.state, user.id)) };
});

/** The KYC status routes. */
export const kycStatus = defineModule({
  name: 'kyc.status',
  routes: [getStatus, refresh, getExtendedStatus],
});
