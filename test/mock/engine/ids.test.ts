import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { nextId, randomDigits, randomHex, uuid } from '../../../mock/engine/ids.js';
import { createEmptyState } from '../../../mock/engine/internals.js';
import { createMockService } from '../../../mock/index.js';

describe('deterministic IDs', () => {
  it('gives the same IDs, keys and secrets for the same seed, and others for another seed', () => {
    const a = createMockService({ seed: 'alpha' });
    const b = createMockService({ seed: 'alpha' });
    const c = createMockService({ seed: 'beta' });
    expect(b.accountId).toBe(a.accountId);
    expect(b.sandboxKey).toBe(a.sandboxKey);
    expect(b.webhookSecret).toBe(a.webhookSecret);
    expect(c.sandboxKey).not.toBe(a.sandboxKey);
  });

  it('2.1, 5.1: the account id is a UUID; keys begin pk_sandbox_ / pk_live_; the secret whsec_', () => {
    const mock = createMockService();
    expect(mock.accountId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(mock.sandboxKey).toMatch(/^pk_sandbox_[0-9a-z]{24}$/);
    expect(mock.liveKey).toMatch(/^pk_live_[0-9a-z]{24}$/);
    expect(mock.webhookSecret).toMatch(/^whsec_[0-9a-z]{32}$/);
  });

  it('draws prefixed IDs, digits and hex from the state, so a copied state continues the same sequence', () => {
    const state = createEmptyState('seq', 0);
    expect(nextId(state, 'txn')).toMatch(/^txn_[0-9a-z]{16}$/);
    expect(randomDigits(state, 6)).toMatch(/^\d{6}$/);
    expect(randomHex(state, 20)).toMatch(/^[0-9a-f]{40}$/);
    const copy = structuredClone(state);
    expect(nextId(copy, 'usr')).toBe(nextId(state, 'usr'));
    expect(uuid(copy)).toBe(uuid(state));
  });

  it('makes UUIDs that uuid validates as version 4, from the seed alone', () => {
    const a = createEmptyState('uuid-seed', 0);
    const b = createEmptyState('uuid-seed', 0);
    const first = uuid(a);
    expect(validate(first) && version(first) === 4).toBe(true);
    expect(uuid(b)).toBe(first);
    expect(uuid(a)).not.toBe(first);
  });
});
