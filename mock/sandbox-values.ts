/**
 * Sandbox test values, like test card numbers: the defaults a mock starts with and the magic inputs that
 * make the simulation take a particular path. Documented in docs/sandbox-values.md; keep both in step.
 * Each area adds its own group below (bank penny drop, UPI, names, amounts).
 */

/** Defaults of `createMockService`. */
export const SANDBOX_DEFAULTS = {
  /** Where the handlers answer when no `baseUrl` is given. */
  baseUrl: 'https://sandbox.inr-payouts.test',
  /** Virtual clock start when no `startTime` is given. */
  startTime: '2025-01-01T00:00:00.000Z',
  /** Seed when none is given. */
  seed: 'inr-payouts',
  /** The caller address in-process; the standalone server sets the real one in `clientIpHeader`. */
  clientIp: '127.0.0.1',
  /** Header that carries the caller address to the IP allow-list check. */
  clientIpHeader: 'x-mock-client-ip',
  /** Real ms the clock waits for each webhook delivery's answer before moving on (`webhookWaitMs`). */
  webhookWaitMs: 2_000,
} as const;

/**
 * KYC sandbox values: the inputs that make a KYC step take a particular path. Anything else takes the
 * happy path, with every name on record equal to the user's Aadhaar name (or `defaultName`).
 */
export const SANDBOX_KYC = {
  /** The name on records when the user has no Aadhaar name and no `name`. */
  defaultName: 'Asha Rao',
  /** A name that scores under 70 against most names, used by the mismatch values below. */
  otherPersonName: 'Vikram Singh',
  bank: {
    /** The penny drop fails: 422 `Verification Failed`. */
    pennyDropFails: '000000000000',
    /** The bank's holder name on record is `otherPersonName`: 422 `Name Mismatch`. */
    otherHolder: '111111111111',
    /** The bank's service errors: 500 `Internal Server Error`. */
    providerError: '500500500500',
  },
  upi: {
    /** An invalid VPA: `verified: false` with `name`, `bankName`, `nameMatchScore` null. */
    invalidVpa: 'invalid@upi',
    /** The VPA's name is `otherPersonName`: `verified: false` with a score under 70. */
    otherHolder: 'mismatch@upi',
    /** The UPI provider errors: 500 `VERIFICATION_FAILED`. */
    providerError: 'error@upi',
  },
  pan: {
    /** Not in the database: 404 `PAN_NOT_FOUND`. */
    notFound: 'ZZZZZ9999Z',
    /** The name on this PAN is `otherPersonName`: 422 `NAME_MISMATCH` with `matchScore`. */
    otherHolder: 'MISMA1234M',
  },
  /** A passport file whose decoded bytes contain this text cannot be read: 422 `Verification Failed`. */
  unreadablePassportMarker: 'SANDBOX-UNREADABLE',
  /** A document-locker init with this `deviceId` answers 503 `SERVICE_UNAVAILABLE`. */
  digilockerUnavailableDeviceId: 'sandbox-digilocker-down',
  /** PAN the document locker returns unless `helpers.digilocker.complete` is given another. */
  digilockerPan: 'ABCDE1234F',
} as const;

/**
 * Sandbox values of the money flows (docs/sandbox-values.md): the exchange rate new quotes use until
 * `helpers.transactions.setExchangeRate` changes it, the amount whose payout the provider rejects, the
 * payout provider's name, and how long a standard quote lasts.
 */
export const SANDBOX_TRANSACTIONS = {
  /** INR per USD (USDC and USDT alike) of new quotes. */
  exchangeRate: '83.25',
  /** A transaction of exactly this many USD has its payout rejected with `PAYOUT_FAILED`. */
  payoutFailureAmount: '66.60',
  /** A deposit of exactly this many USD has its pool sweep fail (`transaction.sweep_failed`); the payout goes on. */
  sweepFailureAmount: '77.70',
  /** `provider` in `transaction.payout_completed`. */
  payoutProvider: 'sandbox-imps',
  /** How long a standard quote waits for a deposit before the transaction is cancelled (`QUOTE_EXPIRED`). */
  quoteTtl: '30m',
  /** Prefunded funding window (spec 2.5, 8), counted from the payout. */
  fundingWindow: '24h',
  /**
   * The INR escrow pool every new account starts with (spec 2.4): settled deal-rate tranches, oldest first,
   * that standard payouts consume, so they get their rate attribution with no set-up.
   * `helpers.tranches.replace` or `clear` changes it.
   */
  defaultTranches: [
    { dealId: 'deal_sandbox_1', dealNumber: 'SBX-0001', rate: '83.10', inrAmount: '5000000.00' },
    { dealId: 'deal_sandbox_2', dealNumber: 'SBX-0002', rate: '83.40', inrAmount: '5000000.00' },
  ],
} as const;
