/** Deposit confirmations per network (docs/assumptions.md; the spec gives none), as the mock plays them. */
import type { Network } from './common.js';

/** How many confirmations a deposit needs on one network, and a block's time. */
export interface ConfirmationRule {
  confirmations: number;
  blockMs: number;
}

/** Required confirmations and block time per network (polygon: 128 blocks of 2 s). */
export const NETWORK_CONFIRMATIONS: Readonly<Record<Network, ConfirmationRule>> = {
  polygon: { confirmations: 128, blockMs: 2_000 },
  ethereum: { confirmations: 12, blockMs: 12_000 },
  arbitrum: { confirmations: 1, blockMs: 250 },
  base: { confirmations: 10, blockMs: 2_000 },
  solana: { confirmations: 32, blockMs: 400 },
};

const timeOf = (rule: ConfirmationRule): number => rule.confirmations * rule.blockMs;

/**
 * Ms from a deposit being seen to its last confirmation on `network` (for a network added later, the longest
 * known), which `waitForAttribution`'s default deadline allows for.
 * @example
 * ```ts
 * import { confirmationMs } from 'inr-payouts';
 * console.log(confirmationMs('polygon'), confirmationMs('ethereum')); // 256000 144000
 * ```
 */
export function confirmationMs(network: string): number {
  const rules: Readonly<Record<string, ConfirmationRule>> = NETWORK_CONFIRMATIONS;
  const rule = Object.hasOwn(rules, network) ? rules[network] : undefined;
  return rule ? timeOf(rule) : Math.max(...Object.values(rules).map(timeOf));
}
