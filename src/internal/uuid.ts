/**
 * A random (version 4) UUID for idempotency keys. The runtime's `crypto.randomUUID` where it exists (Node 20,
 * browsers on https); the `uuid` package would add ~0.3 KB gz to the client for the same call.
 */
export function uuidv4(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Pages served over plain http have getRandomValues but no randomUUID: set the version and variant bits by hand.
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte, i) =>
    (i === 6 ? (byte & 0x0f) | 0x40 : i === 8 ? (byte & 0x3f) | 0x80 : byte).toString(16).padStart(2, '0'),
  ).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
