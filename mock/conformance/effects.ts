/**
 * What a run says it will do to the target before it starts, and what it did when it ends: what it creates, where
 * the events go, how far it moves the target's clock, and in a guided run what it asks of the partner.
 */
import { DEFAULT_RECEIVER_PORT } from './receivers.js';
import type { SideSetup } from './target.js';
import type { ConformanceOptions, Scenario, ScenarioResult } from './types.js';

/**
 * What a guided run asks of the partner, said before it starts. The spec sets the webhook URL and secret in the
 * dashboard only (6), so the run cannot point the account at its receiver: it checks and says so.
 */
export function guidedPlan(
  webhookUrl: unknown,
  options: ConformanceOptions,
  userId: string | undefined,
): string[] {
  const receiverUrl = options.receiverUrl ?? '';
  const port = options.receiverPort ?? DEFAULT_RECEIVER_PORT;
  return [
    `Guided: will create one standard transaction for ${userId ?? "a KYC-verified user it seeds through the target's helpers"} and wait for you to send its testnet deposit (the address, amount and deadline are printed when it is created).`,
    `Deliveries: the run's receiver listens on 127.0.0.1:${port}; ${receiverUrl} must reach it (your tunnel). Each delivery's signature is verified with the webhook secret you gave.`,
    webhookUrl === receiverUrl
      ? `The account's webhook URL is ${receiverUrl}: deliveries reach the run.`
      : `The account's webhook URL is ${typeof webhookUrl === 'string' ? webhookUrl : 'not set'}, not ${receiverUrl}: the API cannot set it; set it in the dashboard (and back after the run), or no delivery reaches the run.`,
  ];
}

/** The target's clock (a mock's, through its helpers), or undefined when it has none or it cannot be read. */
export async function clockOf(target: SideSetup): Promise<number | undefined> {
  if (!target.helpers) return undefined;
  try {
    return Date.parse(await target.helpers.clock.now());
  } catch {
    return undefined;
  }
}

/** What the run will do to the target, said before it starts. */
export function effectsPlanned(
  chosen: readonly Scenario[],
  target: SideSetup,
  webhookUrl: unknown,
  prefix: string,
): string[] {
  const writes = chosen.some((s) => s.tier !== 'read-only');
  if (!writes)
    return ['Will change nothing on the target: read-only sends reads and requests without a valid key.'];
  const lines = [
    `Will create test users and transactions on the target, each named with ${prefix} (deviceId, partnerReference), and send writes the service should refuse.`,
  ];
  if (typeof webhookUrl === 'string')
    lines.push(`Their events will be delivered to the account's webhook URL, ${webhookUrl}.`);
  if (target.helpers && chosen.some((s) => s.tier === 'mock-helpers'))
    lines.push(
      "Will use the target's test helpers: move its clock forward, point its webhook URL at the run's receiver for each webhook scenario (and back), and create a rate-limited account.",
    );
  return lines;
}

/** What the run did to the target, said when it ends: what it created, and how far the target's clock moved. */
export function effectsDone(
  results: readonly ScenarioResult[],
  webhookUrl: unknown,
  clockBefore: number | undefined,
  clockAfter: number | undefined,
): string[] {
  const sent = results.flatMap((r) => r.sandbox);
  const created = (path: string) =>
    sent.filter((o) => o.kind === 'exchange' && o.method === 'POST' && o.path === path && o.status === 201)
      .length;
  const [users, transactions] = [
    created('/v2/users'),
    created('/v2/transactions') + created('/v2/transactions/prefunded'),
  ];
  if (users + transactions === 0 && clockBefore === clockAfter) return ['Changed nothing on the target.'];
  const lines = [
    `Created ${users} user(s) and ${transactions} transaction(s) on the target through the API.`,
  ];
  if (typeof webhookUrl === 'string' && users + transactions > 0)
    lines.push(`Their events went to the account's webhook URL, ${webhookUrl}.`);
  if (clockBefore !== undefined && clockAfter !== undefined && clockAfter !== clockBefore)
    lines.push(`Moved the target's clock ${formatSpan(clockAfter - clockBefore)} forward.`);
  return lines;
}

function formatSpan(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 120
    ? `${(minutes / 60).toFixed(1)} h`
    : minutes >= 1
      ? `${minutes} min`
      : `${Math.round(ms / 1000)} s`;
}
