/**
 * Per-network confirmation rules of the simulation (docs/assumptions.md): how many block confirmations a
 * deposit needs and how long a block takes. Realistic in shape, small enough that a test advances the
 * virtual clock through them in a few calls.
 */
import type { NetworkInput } from '../../src/schemas/common.js';

/** Confirmation rule of one network. */
export interface ConfirmationRule {
  confirmations: number;
  blockMs: number;
}

/** Required confirmations and block time per network. */
export const NETWORK_CONFIRMATIONS: Record<NetworkInput, ConfirmationRule> = {
  polygon: { confirmations: 128, blockMs: 2_000 },
  ethereum: { confirmations: 12, blockMs: 12_000 },
  arbitrum: { confirmations: 1, blockMs: 250 },
  base: { confirmations: 10, blockMs: 2_000 },
  solana: { confirmations: 32, blockMs: 400 },
};

/** Virtual ms from a deposit being seen to its last required confirmation. */
export function confirmationTimeMs(network: NetworkInput): number {
  const rule = NETWORK_CONFIRMATIONS[network];
  return rule.confirmations * rule.blockMs;
}
