/**
 * Document-locker consent (spec 3.2, 4.4): init, and the status the client polls, with its variants.
 */
import * as z from 'zod/mini';
import { absoluteUrl } from '../../internal/checks.js';
import { DeviceId, openEnum, requiredString } from '../common.js';

/**
 * Document-locker session statuses (spec 3.2).
 * @example
 * ```ts
 * import { digilockerStatuses } from 'inr-payouts';
 * digilockerStatuses.includes('EXPIRED') // true
 * ```
 */
export const digilockerStatuses = ['PENDING', 'VERIFIED', 'FAILED', 'EXPIRED'] as const;
/**
 * Response field: a document-locker session status (open).
 * @example
 * ```ts
 * import { DigilockerSessionStatus } from 'inr-payouts';
 * DigilockerSessionStatus.parse('PENDING')
 * ```
 */
export const DigilockerSessionStatus = openEnum(digilockerStatuses);
/**
 * A document-locker session status.
 * @example
 * ```ts
 * import { DigilockerSessionStatus } from 'inr-payouts';
 * const s: DigilockerSessionStatus = 'VERIFIED';
 * ```
 */
export type DigilockerSessionStatus = z.infer<typeof DigilockerSessionStatus>;

const REDIRECT_RULE = 'redirectUrl must be an absolute URL';

/**
 * `POST /v2/users/{userId}/kyc/digilocker/init` body: `redirectUrl` and `deviceId`, both optional.
 * @example
 * ```ts
 * import { DigilockerInitRequest } from 'inr-payouts';
 * DigilockerInitRequest.parse({ redirectUrl: 'https://partner.test/kyc/done', deviceId: 'device-fp-1' })
 * ```
 */
export const DigilockerInitRequest = z.object({
  redirectUrl: z.optional(absoluteUrl(REDIRECT_RULE)),
  deviceId: z.optional(DeviceId),
});
/**
 * Document-locker init body.
 * @example
 * ```ts
 * import { DigilockerInitRequest } from 'inr-payouts';
 * const p: DigilockerInitRequest = { redirectUrl: 'https://partner.test/done' };
 * ```
 */
export type DigilockerInitRequest = z.infer<typeof DigilockerInitRequest>;

/**
 * `POST /v2/users/{userId}/kyc/digilocker/init` data: the session the user opens at `url`.
 * @example
 * ```ts
 * import { DigilockerSession } from 'inr-payouts';
 * DigilockerSession.parse({ clientId: 'dl_1', url: 'https://locker.test/consent/dl_1', expiresIn: 600, message: 'Open the URL' })
 * ```
 */
export const DigilockerSession = z.looseObject({
  clientId: z.string(),
  url: z.string(),
  expiresIn: z.number(),
  message: z.optional(z.string()),
});
/**
 * A document-locker session.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { clientId, url } = await client.kyc.digilocker.init(userId);
 * ```
 */
export type DigilockerSession = z.infer<typeof DigilockerSession>;

/**
 * `GET /v2/users/{userId}/kyc/digilocker/status` query: `clientId` from init.
 * @example
 * ```ts
 * import { DigilockerStatusQuery } from 'inr-payouts';
 * DigilockerStatusQuery.parse({ clientId: 'dl_1' })
 * ```
 */
export const DigilockerStatusQuery = z.object({ clientId: requiredString('clientId') });
/**
 * Document-locker status query.
 * @example
 * ```ts
 * import { DigilockerStatusQuery } from 'inr-payouts';
 * const q: DigilockerStatusQuery = { clientId: 'dl_1' };
 * ```
 */
export type DigilockerStatusQuery = z.infer<typeof DigilockerStatusQuery>;

/**
 * The Aadhaar data a verified session returns.
 * @example
 * ```ts
 * import { DigilockerAadhaar } from 'inr-payouts';
 * DigilockerAadhaar.parse({ name: 'Asha Rao', dob: '1990-01-01', gender: 'F', address: '1 MG Road', maskedAadhaar: 'XXXX-XXXX-1234', pincode: '560001', state: 'Karnataka', district: 'Bengaluru' })
 * ```
 */
export const DigilockerAadhaar = z.looseObject({
  name: z.string(),
  dob: z.optional(z.string()),
  gender: z.optional(z.string()),
  address: z.optional(z.string()),
  maskedAadhaar: z.optional(z.string()),
  pincode: z.optional(z.string()),
  state: z.optional(z.string()),
  district: z.optional(z.string()),
});
/**
 * Aadhaar data from the document locker.
 * @example
 * ```ts
 * import { DigilockerAadhaar } from 'inr-payouts';
 * const a: DigilockerAadhaar = { name: 'Asha Rao' };
 * ```
 */
export type DigilockerAadhaar = z.infer<typeof DigilockerAadhaar>;

/**
 * The Verified variant: `status: VERIFIED`, `verified: true`, with `aadhaar` and `pan`.
 * @example
 * ```ts
 * import { DigilockerVerified } from 'inr-payouts';
 * DigilockerVerified.parse({ status: 'VERIFIED', verified: true, aadhaar: { name: 'Asha Rao' }, pan: { number: 'ABCDE1234F', name: 'Asha Rao' } })
 * ```
 */
export const DigilockerVerified = z.looseObject({
  status: z.literal('VERIFIED'),
  verified: z.literal(true),
  aadhaar: DigilockerAadhaar,
  pan: z.optional(z.looseObject({ number: z.string(), name: z.string() })),
});
/**
 * A verified document-locker session.
 * @example
 * ```ts
 * import { DigilockerStatus } from 'inr-payouts';
 * const s = DigilockerStatus.parse({ status: 'VERIFIED', verified: true, aadhaar: { name: 'Asha Rao' } });
 * if (s.verified) console.log(s.aadhaar.name); // Asha Rao
 * ```
 */
export type DigilockerVerified = z.infer<typeof DigilockerVerified>;

/**
 * The Pending variant: `status: PENDING`, `verified: false`, `message`.
 * @example
 * ```ts
 * import { DigilockerPending } from 'inr-payouts';
 * DigilockerPending.parse({ status: 'PENDING', verified: false, message: 'Waiting for consent' })
 * ```
 */
export const DigilockerPending = z.looseObject({
  status: z.literal('PENDING'),
  verified: z.literal(false),
  message: z.optional(z.string()),
});
/**
 * A session still waiting for the user.
 * @example
 * ```ts
 * import { DigilockerPending } from 'inr-payouts';
 * const p: DigilockerPending = { status: 'PENDING', verified: false };
 * ```
 */
export type DigilockerPending = z.infer<typeof DigilockerPending>;

/**
 * The Expired variant (sent with `success: false`; the client returns it as a result) and the Failed
 * variant: `verified: false`, `status` `EXPIRED` or `FAILED`, an `error` text.
 * @example
 * ```ts
 * import { DigilockerEnded } from 'inr-payouts';
 * DigilockerEnded.parse({ status: 'EXPIRED', verified: false, error: 'Session expired' })
 * ```
 */
export const DigilockerEnded = z.looseObject({
  status: z.literal(['EXPIRED', 'FAILED']),
  verified: z.literal(false),
  error: z.optional(z.string()),
  message: z.optional(z.string()),
});
/**
 * An expired or failed session.
 * @example
 * ```ts
 * import { DigilockerEnded } from 'inr-payouts';
 * const e: DigilockerEnded = { status: 'EXPIRED', verified: false, error: 'Session expired' };
 * ```
 */
export type DigilockerEnded = z.infer<typeof DigilockerEnded>;

/**
 * `GET /v2/users/{userId}/kyc/digilocker/status` data: one of Verified, Pending, Expired or Failed. Narrow on
 * `status` (`'VERIFIED'`, `'PENDING'`, `'EXPIRED'`, `'FAILED'`) or on `verified`.
 * @example
 * ```ts
 * import { DigilockerStatus } from 'inr-payouts';
 * const s = DigilockerStatus.parse({ status: 'PENDING', verified: false });
 * if (s.status === 'VERIFIED') console.log(s.aadhaar.name);
 * ```
 */
export const DigilockerStatus = z.union([DigilockerVerified, DigilockerPending, DigilockerEnded]);
/**
 * A document-locker session status answer.
 * @example
 * ```ts
 * import { DigilockerStatus } from 'inr-payouts';
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { clientId } = await client.kyc.digilocker.init(userId);
 * const s: DigilockerStatus = await client.kyc.digilocker.status(userId, { clientId });
 * ```
 */
export type DigilockerStatus = z.infer<typeof DigilockerStatus>;
