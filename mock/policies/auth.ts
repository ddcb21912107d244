/**
 * Authentication (spec 5.1, 5.4) and the IP allow-list (spec 5.5). These answers are the same on every
 * endpoint, whatever its error shape.
 */
import { SANDBOX_DEFAULTS } from '../sandbox-values.js';
import type { AccountRecord } from '../state/accounts.js';

/** The 401 body of spec 5.4. */
export const UNAUTHORIZED_BODY = { error: 'Unauthorized', message: 'Invalid or missing API key' } as const;

/** The key in an `Authorization: Bearer <key>` header's value, if it has that form. */
export function bearerKey(authorization: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
 * The caller's address from the `x-mock-client-ip` header's value, which the standalone server sets; in-process,
 * `127.0.0.1`.
 */
export function clientIp(header: string | null): string {
  return header?.trim() || SANDBOX_DEFAULTS.clientIp;
}

/** Whether the account lets `ip` in: always when its allow-list is off, else only exact listed addresses. */
export function ipAllowed(account: AccountRecord, ip: string): boolean {
  return !account.ipAllowList.enabled || account.ipAllowList.addresses.includes(ip);
}

/** The 403 body for an address not on an enabled allow-list (spec 5.5, 7.2). */
export function forbiddenBody(ip: string): { error: string; message: string } {
  return { error: 'Forbidden', message: `IP address ${ip} is not on this account's allow-list` };
}
