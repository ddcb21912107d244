/**
 * The whole suite, in the order it runs: one file per area of the spec. Adding an area is a file and a line here.
 */
import type { Scenario } from '../types.js';
import { ACCOUNT_SCENARIOS } from './account.js';
import { WEBHOOK_SCENARIOS } from './webhooks.js';

/**
 * Every scenario of the conformance suite.
 * @example
 * ```ts
 * import { CONFORMANCE_SCENARIOS } from 'inr-payouts/mock';
 * console.log(CONFORMANCE_SCENARIOS.map((s) => `${s.id} (${s.tier})`).join('\n'));
 * ```
 */
export const SCENARIOS: readonly Scenario[] = [...ACCOUNT_SCENARIOS, ...WEBHOOK_SCENARIOS];
