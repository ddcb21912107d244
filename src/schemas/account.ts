// Account wire objects (spec 2.1, 2.2, 2.5, 2.6, 4.1): the account, the developer fee, the activity list
// and the prefunded credit (assumed `GET /v2/account/credit`, docs/assumptions.md).
import * as z from 'zod/mini';
import { numberBetween, wholeNumberBetween } from '../internal/checks.js';
import {
  Asset,
  DecimalString,
  environments,
  MAX_ACTIVITY_LIMIT,
  MAX_DEVELOPER_FEE_PERCENT,
  MIN_DEVELOPER_FEE_PERCENT,
  Network,
  openEnum,
  responseObject,
  Timestamp,
} from './common.js';
import { PayoutStatus, TransactionStatus } from './transactions.js';

/** `GET /v2/account` data (spec 2.1). */
export const Account = responseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  environment: openEnum(environments),
  /** Allowed values not shown by the spec. */
  status: z.string(),
  apiKeyPrefix: z.string(),
  /** Absent when no webhook URL is configured. */
  webhookUrl: z.optional(z.nullable(z.string())),
  volume: responseObject({ monthlyUsd: z.number(), totalUsd: z.number() }),
  limits: responseObject({ rateLimit: z.number() }),
});
/** The partner's account. */
export type Account = z.infer<typeof Account>;

const FEE_RULE = 'percent must be a number from 0 to 0.05 inclusive (0% to 5%)';

/** `PUT /v2/account/developer-fee` body (spec 2.2): `enabled` and `percent`, a fraction from 0 to 0.05. */
export const DeveloperFeeRequest = z.object({
  enabled: z.boolean({ error: 'enabled is required and must be a boolean' }),
  percent: z
    .number({ error: FEE_RULE })
    .check(numberBetween(MIN_DEVELOPER_FEE_PERCENT, MAX_DEVELOPER_FEE_PERCENT, FEE_RULE)),
});
/** Developer fee update. */
export type DeveloperFeeRequest = z.infer<typeof DeveloperFeeRequest>;

/** `PUT /v2/account/developer-fee` data: the new setting. */
export const DeveloperFee = responseObject({ enabled: z.boolean(), percent: z.number() });
/** The developer fee setting. */
export type DeveloperFee = z.infer<typeof DeveloperFee>;

const LIMIT_RULE = `limit must be an integer from 1 to ${MAX_ACTIVITY_LIMIT}`;

/** `GET /v2/account/activity` query: `limit` (default 10, 1 to 50). */
export const ActivityQuery = z.object({
  limit: z.optional(wholeNumberBetween(1, MAX_ACTIVITY_LIMIT, LIMIT_RULE)),
});
/** Activity list query. */
export type ActivityQuery = z.infer<typeof ActivityQuery>;

/** One activity item (spec 2.6). `payoutAmountInr` is an explicit `null` until the payout is processed. */
export const ActivityItem = responseObject({
  id: z.string(),
  status: TransactionStatus,
  depositAmount: DecimalString,
  depositAsset: Asset,
  depositNetwork: Network,
  payoutAmountInr: z.nullable(DecimalString),
  payoutStatus: z.optional(z.nullable(PayoutStatus)),
  user: responseObject({ id: z.string(), name: z.optional(z.nullable(z.string())) }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/** One recent transaction in the activity list. */
export type ActivityItem = z.infer<typeof ActivityItem>;

/** `GET /v2/account/activity` data: the most recent transactions first. */
export const ActivityList = z.array(ActivityItem);
/** The activity list. */
export type ActivityList = z.infer<typeof ActivityList>;

/** `GET /v2/account/credit` data (assumed, docs/assumptions.md; fields from spec 2.5). */
export const Credit = responseObject({
  prefundedEnabled: z.boolean(),
  creditLimitUsd: DecimalString,
  outstandingUsd: DecimalString,
  availableUsd: DecimalString,
});
/** The prefunded credit of the account. */
export type Credit = z.infer<typeof Credit>;
