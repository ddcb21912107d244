/**
 * A random (version 4) UUID for idempotency keys. The runtime's `crypto.randomUUID` where it exists (Node 20,
 * browsers on https); the `uuid` package would add ~0.3 KB gz to the client for the same call.
 */
export function uuidv4(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Pages served over plain http have getRandomValues but no randomUUID. In the template, each 0 and 1 becomes a
  // random hex digit and each 8 one of 8-b (the variant bits); the 4 is the version.
  return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => {
    const digit = Number(c);
    return (digit ^ ((crypto.getRandomValues(new Uint8Array(1))[0] ?? 0) & (15 >> (digit / 4)))).toString(16);
  });
}
