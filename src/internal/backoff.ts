/**
 * Exponential backoff with "equal jitter": half the step is fixed, half is random, so retries from many clients
 * spread out while each still waits at least half its step.
 *
 * @param retry - 0 for the first retry.
 */
export function backoffDelay(
  retry: number,
  baseMs = 500,
  capMs = 8_000,
  random: () => number = Math.random,
): number {
  const step = Math.min(capMs, baseMs * 2 ** retry);
  return step / 2 + (random() * step) / 2;
}
