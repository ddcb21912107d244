/**
 * Authentication (spec 5.1, 5.4) and the IP allow-list (spec 5.5). These answers are the same on every
 * endpoint, whatever its error shape.
 */
import { SANDBOX_DEFAULTS } from '../sandbox-values.js';
import type { AccountRecord } from '../state/accounts.js';

/** The 401 body of spec 5.4. */
export const UNAUTHORIZED_BODY = { error: 'Unauthorized', message: 'Invalid or missing API key' } as const;

/** The key in `Authorization: Bearer <key>`, if the header has that form. */
export function bearerKey(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1];
}

/** The caller's address: set by the standalone server in `x-mock-client-ip`, `127.0.0.1` in-process. */
export function clientIp(request: Request): string {
  return request.headers.get(SANDBOX_DEFAULTS.clientIpHeader)?.trim() || SANDBOX_DEFAULTS.clientIp;
}

/** Whether the account lets `ip` in: always when its allow-list is off, else only exact listed addresses. */
export function ipAllowed(account: AccountRecord, ip: string): boolean {
  return !account.ipAllowList.enabled || account.ipAllowList.addresses.includes(ip);
}

/** The 403 body for an address not on an enabled allow-list (spec 5.5, 7.2). */
export function forbiddenBody(ip: string): { error: string; message: string } {
  return { error: 'Forbidden', message: `IP address ${ip} is not on this account's allow-list` };
}
