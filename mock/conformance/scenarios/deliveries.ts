/**
 * What a scenario records of the deliveries it received: each one's headers (in their form), its envelope (by
 * shape, and against its event type's payload in the contract), and an event type the contract does not list,
 * named as such and compared, where its payload is near one, with the type it stands in for.
 */
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../../src/webhooks/index.js';
import { isEventType } from '../contract.js';
import { nearestEventType } from '../contract-problems.js';
import type { ScenarioTarget } from '../types.js';
import type { ReceivedDelivery } from './webhook-receiver.js';

/** The form of each header the spec and the mock's documented choices put on a delivery. */
function headerForms(delivery: ReceivedDelivery): Record<string, string> {
  const signature = delivery.headers[SIGNATURE_HEADER];
  const eventId = delivery.headers[EVENT_ID_HEADER];
  return {
    'Content-Type': delivery.headers['content-type']?.split(';')[0]?.trim() ?? 'absent',
    'X-Service-Signature':
      signature === undefined
        ? 'absent'
        : /^t=\d+,v1=[0-9a-f]{64}$/.test(signature)
          ? 't=<unix seconds>,v1=<64 hex digits>'
          : `another form (${signature})`,
    'X-Service-Event-Id':
      eventId === undefined
        ? 'absent'
        : eventId === delivery.envelope?.id
          ? "the envelope's id"
          : 'another id',
  };
}

/**
 * The step every delivery's headers are recorded under: one label for all, so a header a target leaves off
 * every delivery is one difference, with its count.
 */
const DELIVERY_HEADERS = "a delivery's headers";

/**
 * Records one delivery's headers (see {@link DELIVERY_HEADERS}); one never received records nothing to
 * compare, and keeps the two sides' steps in step.
 */
export function recordHeaders(t: ScenarioTarget, delivery: ReceivedDelivery | undefined): void {
  t.step(DELIVERY_HEADERS, delivery && headerForms(delivery), { compare: 'headers' });
}

/** The deliveries of the `expected` types, each the first of its type or an unknown type standing in for it. */
export interface Matched {
  byType: Map<string, ReceivedDelivery>;
  /** Event types the contract does not list, near none of the missing ones. */
  unmatched: string[];
}

const typeOf = (d: ReceivedDelivery) => String(d.envelope?.event);

/**
 * Matches `deliveries` to the `expected` event types: each type's first delivery; then each type the contract
 * does not list, in the order it arrived, to the missing type whose payload it is nearest (a renamed type).
 */
export function matchDeliveries(
  deliveries: readonly ReceivedDelivery[],
  expected: readonly string[],
): Matched {
  const byType = new Map<string, ReceivedDelivery>();
  for (const type of expected) {
    const first = deliveries.find((d) => typeOf(d) === type);
    if (first) byType.set(type, first);
  }
  const unmatched: string[] = [];
  const seen = new Set<string>();
  for (const d of deliveries) {
    const type = typeOf(d);
    if (isEventType(type) || seen.has(type)) continue;
    seen.add(type);
    const missing = expected.filter((e) => !byType.has(e));
    const near = nearestEventType(d.envelope?.data, missing);
    if (near) byType.set(near, d);
    else unmatched.push(type);
  }
  return { byType, unmatched };
}

/** The step naming the event types the contract does not list, near none expected: for review. */
export const UNLISTED_TYPES = 'event types the contract does not list';

/**
 * Records the `expected` types' deliveries: every verdict of the package's verifier, each delivery's headers
 * and envelope (one never received is named so), and the unknown types near none.
 */
export function recordDeliveries(t: ScenarioTarget, matched: Matched, expected: readonly string[]): void {
  const firsts = expected.map((type) => matched.byType.get(type));
  const verdicts = firsts.flatMap((d) => (d ? [d.verdict] : []));
  t.step('every delivery under verifyWebhook, on arrival', [...new Set(verdicts)].sort());
  for (const d of firsts) recordHeaders(t, d);
  for (const [i, type] of expected.entries())
    t.step(`${type} delivery: envelope`, firsts[i]?.envelope, { compare: 'delivery' });
  t.step(UNLISTED_TYPES, [...matched.unmatched].sort());
}
