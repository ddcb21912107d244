/**
 * KYC records (spec 2.7, 2.8, 3.3). A minimal start: the KYC flows extend `KycRecord` and add their own
 * collections (document-locker sessions, face sessions, documents) to `KycSlice` and `emptyKyc`.
 */

/**
 * KYC level (spec 2.7).
 * @example
 * const level: KycLevel = 'basic';
 */
export type KycLevel = 'none' | 'basic' | 'enhanced';

/**
 * KYC aggregate status (spec 3.3).
 * @example
 * const status: KycStatus = 'in_progress';
 */
export type KycStatus = 'pending' | 'in_progress' | 'verified' | 'rejected';

/**
 * The KYC aggregate of one user.
 * @example
 * const kyc = state.kyc.byUserId[userId];
 */
export interface KycRecord {
  userId: string;
  level: KycLevel;
  status: KycStatus;
  updatedAt: string;
}

/**
 * The KYC collection.
 * @example
 * const slice = emptyKyc();
 */
export interface KycSlice {
  byUserId: Record<string, KycRecord>;
}

/**
 * An empty KYC collection.
 * @example
 * const slice = emptyKyc();
 */
export function emptyKyc(): KycSlice {
  return { byUserId: {} };
}
