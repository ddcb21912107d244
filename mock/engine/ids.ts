/**
 * Deterministic identifiers. The PRNG (mulberry32) keeps its whole state in one number in `MockState`, so
 * the same seed gives the same IDs, and a restored snapshot continues the same sequence.
 */
import { v4 } from 'uuid';
import type { MockState } from '../state/mock-state.js';

const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** Turns any seed into the PRNG's 32-bit starting state (FNV-1a). */
export function seedToInt(seed: string | number): number {
  let hash = 0x811c9dc5;
  for (const char of String(seed)) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** The next number in [0, 1) from the state's PRNG. */
export function random(state: { rng: number }): number {
  state.rng = (state.rng + 0x6d2b79f5) | 0;
  let t = state.rng;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** `length` characters drawn from `alphabet`. */
export function randomString(state: MockState, length: number, alphabet: string = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random(state) * alphabet.length)];
  return out;
}

/** A prefixed identifier such as `usr_4k2m9x0q1w8e7r`. */
export function nextId(state: MockState, prefix: string, length = 16): string {
  return `${prefix}_${randomString(state, length)}`;
}

/** `count` decimal digits, for OTPs, UTRs and the like. */
export function randomDigits(state: MockState, count: number): string {
  return randomString(state, count, '0123456789');
}

/** `bytes` random bytes as lowercase hex, for deposit addresses and tx hashes. */
export function randomHex(state: MockState, bytes: number): string {
  return randomString(state, bytes * 2, HEX);
}

/**
 * A version-4 UUID, where the spec says UUID (the account id): `uuid`'s v4 over 16 bytes from the state's
 * PRNG instead of the system's randomness, so the same seed gives the same UUID.
 */
export function uuid(state: MockState): string {
  const bytes = new Uint8Array(16);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random(state) * 256);
  return v4({ random: bytes });
}
