/**
 * The start line of a server on a real-time clock: a payout's flow then takes minutes, as on the service,
 * and a first run otherwise waits without knowing that `--speed` or the clock helper exist.
 */
import { networks } from '../../src/schemas/common.js';
import type { MockService } from '../service.js';

/** `256000` → `4 min 16 s`. */
function minutes(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const whole = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (whole === 0) return `${rest} s`;
  return rest === 0 ? `${whole} min` : `${whole} min ${rest} s`;
}

/** The slowest network's confirmations, from the service's own rules, and how to move faster. */
export function realTimeHint(service: MockService): string {
  const [network, ms] = networks
    .map((name) => [name, service.helpers.transactions.confirmationMs(name)] as const)
    .reduce((slowest, next) => (next[1] > slowest[1] ? next : slowest));
  return `at real time a payout takes minutes (a deposit's confirmations alone up to ${minutes(ms)} on ${network}): start with --speed 60 for a virtual minute a second, or move the clock with POST /__mock/clock/advance`;
}
