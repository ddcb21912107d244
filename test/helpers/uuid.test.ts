import { afterEach, describe, expect, it, vi } from 'vitest';
import { uuidv4 } from '../../src/internal/uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.restoreAllMocks());

describe('1: idempotency keys are random version 4 UUIDs', () => {
  it('1: uses crypto.randomUUID where the runtime has it', () => {
    const spy = vi.spyOn(globalThis.crypto, 'randomUUID');
    expect(uuidv4()).toMatch(V4);
    expect(spy).toHaveBeenCalledOnce();
  });

  it('1: builds a valid v4 UUID from getRandomValues where randomUUID is missing (pages on plain http)', () => {
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 500 }, () => uuidv4()));
      expect(keys.size).toBe(500);
      for (const key of keys) expect(key).toMatch(V4);
    } finally {
      // Drops the own property, so the prototype's randomUUID shows through again.
      Reflect.deleteProperty(globalThis.crypto, 'randomUUID');
    }
  });
});
