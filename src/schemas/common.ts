// Shared wire pieces (spec 1, 7.1, 8). Requests are strict and name the spec's rule in their messages;
// responses are forgiving (open enums, plain strings).
import * as z from 'zod/mini';
import { oneOf, stringMatching, stringOfLength } from '../internal/checks.js';
import { compareDecimalStrings } from '../internal/decimal-compare.js';
import { openEnumValues } from '../internal/open-enums.js';
import { MAX_AMOUNT_USD, MIN_AMOUNT_USD } from './limits.js';

/** Stablecoins accepted on the deposit leg (spec 2.4). */
export const assets = ['USDC', 'USDT'] as const;
/** Blockchain networks of the deposit leg (spec 2.4). */
export const networks = ['polygon', 'ethereum', 'arbitrum', 'base', 'solana'] as const;
/** Account environments (spec 2.1). */
export const environments = ['sandbox', 'production'] as const;

/** Request field: `asset`, one of `USDC`, `USDT`. */
export const AssetInput = oneOf('asset', assets);
/** A deposit asset in a request (`USDC` or `USDT`). */
export type AssetInput = z.infer<typeof AssetInput>;
/** Request field: `network`, one of `polygon`, `ethereum`, `arbitrum`, `base`, `solana`. */
export const NetworkInput = oneOf('network', networks);
/** A deposit network in a request. */
export type NetworkInput = z.infer<typeof NetworkInput>;

/**
 * A response object: a field the service adds later passes through at run time (`z.looseObject`), while the
 * type names only the known fields, so a misspelt field fails to compile.
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { responseObject } from 'inr-payouts';
 * const thing = responseObject({ id: z.string() }).parse({ id: 't_1', addedLater: true }); // keeps addedLater
 * console.log(thing.id); // thing.ids would not compile
 * ```
 */
export function responseObject<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): ReturnType<typeof z.object<Shape>> {
  return z.looseObject(shape) as unknown as ReturnType<typeof z.object<Shape>>;
}

/** The value type of an open enum: a known value, or any other string the service may add later. */
export type OpenEnum<T extends readonly string[]> = T[number] | (string & {});

/**
 * A response enum that takes any string (a value added later never breaks a read); editors suggest the known.
 * @example
 * ```ts
 * import { openEnum } from 'inr-payouts';
 * const Status = openEnum(['pending', 'delivered', 'failed']);
 * Status.parse('queued'); // 'queued', typed 'pending' | 'delivered' | 'failed' | (string & {})
 * ```
 */
export function openEnum<const T extends readonly string[]>(values: T): z.ZodMiniType<OpenEnum<T>, unknown> {
  // The values only type the result and are published in the OpenAPI document.
  const schema = z.string();
  openEnumValues.set(schema, values);
  return schema as unknown as z.ZodMiniType<OpenEnum<T>, unknown>;
}

/** Response field: asset, open (a new asset still parses, as `OpenEnum<typeof assets>`). */
export const Asset = openEnum(assets);
/** Response field: network, open (`OpenEnum<typeof networks>`). */
export const Network = openEnum(networks);
/** A deposit asset the service takes, for a request; a response reads `OpenEnum<typeof assets>`. */
export type Asset = (typeof assets)[number];
/** A deposit network the service takes, for a request; a response reads `OpenEnum<typeof networks>`. */
export type Network = (typeof networks)[number];

/** A non-negative decimal string with no sign, exponent or leading `.` (`'100'`, `'100.50'`). */
export const DECIMAL_STRING_PATTERN = /^\d+(\.\d+)?$/;

/** Request field: a non-negative decimal string (`'100'`, `'0.5'`); never a number, never an exponent. */
export const DecimalStringInput = stringMatching(
  DECIMAL_STRING_PATTERN,
  'must be a decimal string, for example "100.50"',
);

/** Response field: money as a decimal string, never refused; do arithmetic with `inr-payouts/money`. */
export const DecimalString = z.string();
/** A decimal string (money on the wire). */
export type DecimalString = z.infer<typeof DecimalString>;

const AMOUNT_RULE = 'amount must be a decimal string from 10 to 50,000 USD';

/**
 * Request field: a transaction `amount` in USD, a decimal string from 10 to 50,000 inclusive, compared exactly
 * (no floating point). Issues carry `AMOUNT_TOO_LOW` or `AMOUNT_TOO_HIGH` in `params.code`, the mock's answer.
 */
export const AmountUsd = z.string({ error: `${AMOUNT_RULE}, for example "100.50"` }).check(
  z.regex(DECIMAL_STRING_PATTERN, { error: `${AMOUNT_RULE}, for example "100.50" (no sign, no exponent)` }),
  z.refine((v) => !DECIMAL_STRING_PATTERN.test(v) || compareDecimalStrings(v, MIN_AMOUNT_USD) >= 0, {
    error: `${AMOUNT_RULE}: it is below the minimum of 10 USD`,
    params: { code: 'AMOUNT_TOO_LOW' },
  }),
  z.refine((v) => !DECIMAL_STRING_PATTERN.test(v) || compareDecimalStrings(v, MAX_AMOUNT_USD) <= 0, {
    error: `${AMOUNT_RULE}: it is above the maximum of 50,000 USD`,
    params: { code: 'AMOUNT_TOO_HIGH' },
  }),
);

/** Response field: an ISO 8601 UTC timestamp string (kept a string; parse with `new Date()` when needed). */
export const Timestamp = z.string();
/** An ISO 8601 UTC timestamp string. */
export type Timestamp = z.infer<typeof Timestamp>;

/** Request field: an OTP, exactly 6 digits. */
export const Otp = stringMatching(/^\d{6}$/, 'otp must be exactly 6 digits');

const DEVICE_ID_RULE = 'deviceId must be a non-empty string (the device fingerprint)';

/** Request field: `deviceId`, the device fingerprint captured from the end user's device (spec 1). */
export const DeviceId = stringOfLength(1, Infinity, DEVICE_ID_RULE);

/**
 * A required non-empty string request field named `field`.
 * @example
 * ```ts
 * import { requiredString } from 'inr-payouts';
 * const UserId = requiredString('userId'); UserId.parse('usr_123');
 * ```
 */
export function requiredString(field: string) {
  const error = `${field} is required and must be a non-empty string`;
  return stringOfLength(1, Infinity, error);
}

/** Request field: `metadata`, the partner's custom key/value object (size limits not shown by the spec). */
// Not z.record: the same rule without its ~0.6 KB gz of zod in the client bundle.
export const Metadata = z.looseObject({}, { error: 'metadata must be an object' });

/**
 * The success envelope around a response's `data` (spec 1): `{ success: true, data, message? }`.
 * @example
 * ```ts
 * import { DeveloperFee, successEnvelope } from 'inr-payouts';
 * const Body = successEnvelope(DeveloperFee); Body.parse({ success: true, data: { enabled: true, percent: 0.01 } });
 * ```
 */
export function successEnvelope<T extends z.ZodMiniType>(data: T) {
  return responseObject({ success: z.literal(true), data, message: z.optional(z.string()) });
}

/** One failed field of a request, as the mock reports it in `details` (docs/assumptions.md). */
export const ValidationErrorDetail = responseObject({ field: z.string(), message: z.string() });
/** One failed field of a request. */
export type ValidationErrorDetail = z.infer<typeof ValidationErrorDetail>;

/** Error body shape A (spec 7.1): `error` (category), `message`, `code` (identifier) and context fields. */
export const ErrorBodyA = responseObject({
  error: z.string(),
  message: z.string(),
  code: z.string(),
  attemptsRemaining: z.optional(z.number()),
  matchScore: z.optional(z.number()),
  retryAfter: z.optional(z.number()),
  details: z.optional(z.array(ValidationErrorDetail)),
});
/** Error body shape A. */
export type ErrorBodyA = z.infer<typeof ErrorBodyA>;

/** Error body shape B (spec 7.1), used by some KYC endpoints: `success: false`, `error`, `message`, `data`. */
export const ErrorBodyB = responseObject({
  success: z.literal(false),
  error: z.string(),
  message: z.string(),
  data: z.optional(z.unknown()),
  attemptsRemaining: z.optional(z.number()),
  details: z.optional(z.array(ValidationErrorDetail)),
});
/** Error body shape B. */
export type ErrorBodyB = z.infer<typeof ErrorBodyB>;

/** The rate-limit error body (spec 7.6): `error: 'Rate Limit Exceeded'`, `message`, `retryAfter` seconds. */
export const RateLimitErrorBody = responseObject({
  error: z.string(),
  message: z.string(),
  retryAfter: z.number(),
});
/** The rate-limit error body. */
export type RateLimitErrorBody = z.infer<typeof RateLimitErrorBody>;

export * from './limits.js';
