import { v4, validate } from 'uuid';
import { afterEach, describe, expect, it, vi } from 'vitest';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.restoreAllMocks());

// The client makes its idempotency keys with the uuid package's v4 and checks a caller's own key with its validate.
describe('1: idempotency keys are random version 4 UUIDs', () => {
  it('1: uses crypto.randomUUID where the runtime has it', () => {
    const spy = vi.spyOn(globalThis.crypto, 'randomUUID');
    expect(v4()).toMatch(V4);
    expect(spy).toHaveBeenCalledOnce();
  });

  it('1: still makes valid v4 UUIDs where randomUUID is missing (pages on plain http)', () => {
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 500 }, () => v4()));
      expect(keys.size).toBe(500);
      for (const key of keys) expect(key).toMatch(V4);
    } finally {
      // Drops the own property, so the prototype's randomUUID shows through again.
      Reflect.deleteProperty(globalThis.crypto, 'randomUUID');
    }
  });

  it('1: accepts any RFC 9562 UUID as a caller key and refuses other strings', () => {
    expect(validate('0190f3b6-7c1e-7a4b-9c2d-3e4f5a6b7c8d')).toBe(true);
    expect(validate('order-42')).toBe(false);
    expect(validate('')).toBe(false);
  });
});
