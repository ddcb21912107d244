/**
 * PAN verification (assumed, docs/assumptions.md): fields from the `pan` block (spec 2.7); `PAN_INVALID`,
 * `PAN_NOT_FOUND`, `NAME_MISMATCH` from 7.3.
 */
import * as z from 'zod/mini';
import { DeviceId, Timestamp } from '../common.js';

/**
 * A PAN: five letters, four digits, one letter (`ABCDE1234F`).
 * @example
 * ```ts
 * import { PAN_PATTERN } from 'inr-payouts';
 * PAN_PATTERN.test('ABCDE1234F') // true
 * ```
 */
export const PAN_PATTERN = /^[A-Z]{5}\d{4}[A-Z]$/;
const PAN_RULE = 'pan must be a PAN like ABCDE1234F (5 capital letters, 4 digits, 1 capital letter)';

/**
 * `POST /v2/users/{userId}/kyc/pan/verify` body (assumed): `pan`, `deviceId?`.
 * @example
 * ```ts
 * import { PanVerifyRequest } from 'inr-payouts';
 * PanVerifyRequest.parse({ pan: 'ABCDE1234F' })
 * ```
 */
export const PanVerifyRequest = z.object({
  pan: z.string({ error: PAN_RULE }).check(z.regex(PAN_PATTERN, { error: PAN_RULE })),
  deviceId: z.optional(DeviceId),
});
/**
 * PAN verify body.
 * @example
 * ```ts
 * import { PanVerifyRequest } from 'inr-payouts';
 * const p: PanVerifyRequest = { pan: 'ABCDE1234F' };
 * ```
 */
export type PanVerifyRequest = z.infer<typeof PanVerifyRequest>;

/**
 * `POST /v2/users/{userId}/kyc/pan/verify` data (assumed).
 * @example
 * ```ts
 * import { PanVerification } from 'inr-payouts';
 * PanVerification.parse({ verified: true, maskedNumber: 'XXXXX1234X', nameOnPan: 'ASHA RAO', nameMatchScore: 96, verifiedAt: '2024-01-15T10:36:00Z' })
 * ```
 */
export const PanVerification = z.looseObject({
  verified: z.boolean(),
  maskedNumber: z.optional(z.string()),
  nameOnPan: z.optional(z.string()),
  nameMatchScore: z.optional(z.number()),
  verifiedAt: z.optional(Timestamp),
});
/**
 * A verified PAN.
 * @example
 * ```ts
 * const { userId } = await client.users.create({ mobile: '9876543210', name: 'Asha Rao', email: 'asha@example.com' });
 * const { nameMatchScore } = await client.kyc.pan.verify(userId, { pan: 'ABCDE1234F' });
 * ```
 */
export type PanVerification = z.infer<typeof PanVerification>;
