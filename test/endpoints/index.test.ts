/**
 * The endpoint table every part reads: each call has its contract, the IDs round-trip, and the error lists built
 * from shared lists keep every code in order.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTRACTS,
  colonPath,
  ENDPOINTS,
  endpointLabel,
  operationIdOf,
  PATH_PARAM,
} from '../../src/endpoints/index.js';

describe('the endpoint table', () => {
  it('names the same operations in its calls and its contracts', () => {
    expect(Object.keys(CONTRACTS).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  it('finds each row by its operation ID, and nothing for a row it does not hold', () => {
    for (const [id, row] of Object.entries(ENDPOINTS)) expect(operationIdOf(row)).toBe(id);
    expect(operationIdOf({ ...ENDPOINTS['users.create'] })).toBeUndefined();
  });

  it('puts every path under /v2, each parameter named once', () => {
    for (const { path } of Object.values(ENDPOINTS)) {
      expect(path).toMatch(/^\/v2\//);
      const names = [...path.matchAll(PATH_PARAM)].map((match) => match[1]);
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it('writes a path in the :name form for reports', () => {
    expect(colonPath('/v2/users/{userId}/kyc/status')).toBe('/v2/users/:userId/kyc/status');
    expect(endpointLabel(ENDPOINTS['webhooks.retry'])).toBe('POST /v2/webhooks/:eventId/retry');
  });

  it('lists each error once, shared lists first and in order (spec 7.3, 7.4)', () => {
    for (const { errors } of Object.values(CONTRACTS)) expect(new Set(errors).size).toBe(errors.length);
    expect(CONTRACTS['transactions.create'].errors).toEqual([
      'USER_NOT_FOUND',
      'KYC_INCOMPLETE',
      'NO_BANK_ACCOUNT',
      'PENDING_TRANSACTION_EXISTS',
      'AMOUNT_TOO_LOW',
      'AMOUNT_TOO_HIGH',
    ]);
    expect(CONTRACTS['users.email.sendOtp'].errors).toEqual([
      'USER_NOT_FOUND',
      'ALREADY_VERIFIED',
      'TOO_MANY_REQUESTS',
      'NO_EMAIL',
    ]);
  });
});
