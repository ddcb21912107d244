/**
 * End users of a partner (spec 2.3; creation assumed, docs/assumptions.md). A user belongs to one account,
 * and a mobile number is unique within that account (`USER_EXISTS`).
 */
import { keyed } from './records.js';

/**
 * A user as the mock stores it. Optional fields stay absent (never null), so responses omit them (spec 1).
 */
export interface UserRecord {
  id: string;
  accountId: string;
  /** Normalised to `+91XXXXXXXXXX`. */
  mobile: string;
  email?: string;
  name?: string;
  deviceId?: string;
  mobileVerified: boolean;
  emailVerified: boolean;
  mobileVerifiedAt?: string;
  emailVerifiedAt?: string;
  createdAt: string;
}

/** The users collection with its mobile index. */
export interface UsersSlice {
  byId: Record<string, UserRecord>;
  /** `${accountId}:${mobile}` → user id. */
  idByMobile: Record<string, string>;
}

export function emptyUsers(): UsersSlice {
  return { byId: keyed(), idByMobile: keyed() };
}

/** The key of the mobile index: mobiles are unique per account, not across accounts. */
export function mobileKey(accountId: string, mobile: string): string {
  return `${accountId}:${mobile}`;
}
