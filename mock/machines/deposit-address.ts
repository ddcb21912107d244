/**
 * Deposit addresses (spec 4.2: the prefunded address "is the same as for standard transactions"): one per
 * user and address family, derived from the service seed, so the same user always gets the same address and
 * a seeded mock gives the same addresses on every run. EVM networks share one address, as they do on chain.
 */
import type { NetworkInput } from '../../src/schemas/common.js';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** FNV-1a then xorshift: a small deterministic stream of 32-bit numbers from a text. */
function stream(text: string): () => number {
  let h = 0x811c9dc5;
  for (const char of text) h = Math.imul(h ^ (char.codePointAt(0) ?? 0), 0x01000193);
  return () => {
    h ^= h << 13;
    h ^= h >>> 17;
    h ^= h << 5;
    return h >>> 0;
  };
}

function chars(next: () => number, alphabet: string, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[next() % alphabet.length];
  return out;
}

/** The deposit address of `userId` on `network` under `seed`. */
export function depositAddress(seed: string, userId: string, network: NetworkInput): string {
  const family = network === 'solana' ? 'solana' : 'evm';
  const next = stream(`${seed}|${userId}|${family}`);
  return family === 'solana' ? chars(next, BASE58, 44) : `0x${chars(next, HEX, 40)}`;
}
