/**
 * One delivery to the receiver, as the service makes it (spec 6.3, 6.4): a POST of the exact signed bytes with
 * `X-Service-Signature` and `X-Service-Event-Id`, given up after the delivery time-out.
 */
import { describeError } from '../../src/shared/describe-error.js';
import { isPlainObject } from '../../src/shared/plain-object.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../src/webhooks/index.js';
import { MSW_PASSTHROUGH } from '../operations/webhooks.js';

/** What came back from one delivery. */
export interface DeliveryOutcome {
  /** The HTTP status; absent when nothing came back (time-out, refused connection). */
  status?: number;
  /** The answer's text, cut to 200 characters. */
  body?: string;
  /** Real milliseconds until the answer, or until the checker gave up. */
  ms: number;
  /** The receiver did not answer within the time-out. */
  timedOut?: boolean;
  /** A network error (connection refused, reset). */
  error?: string;
}

/**
 * POSTs one delivery (`signature`: the `X-Service-Signature` value, none sent when absent) and reads the answer,
 * giving up after `timeoutMs` (the spec's 30 s by default).
 */
export async function deliver(
  fetchFn: typeof fetch,
  url: string,
  request: { body: string; signature?: string; eventId: string },
  timeoutMs: number,
): Promise<DeliveryOutcome> {
  const headers: Record<string, string> = {
    // As real deliveries: a check run inside a test with its own MSW server still reaches the receiver.
    ...MSW_PASSTHROUGH,
    'content-type': 'application/json',
    [EVENT_ID_HEADER]: request.eventId,
    'user-agent': 'inr-payouts-mock check-receiver',
  };
  if (request.signature !== undefined) headers[SIGNATURE_HEADER] = request.signature;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // The time-out covers the whole answer, body included, as the service's 30 s does.
    const signal = AbortSignal.timeout(timeoutMs);
    const response = await fetchFn(url, {
      method: 'POST',
      headers,
      body: request.body,
      signal,
      redirect: 'manual',
    });
    return { status: response.status, body: (await response.text()).slice(0, 200), ms: elapsed() };
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return { ms: elapsed(), timedOut: true };
    }
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { ms: elapsed(), error: `${describeError(error)}${cause}` };
  }
}

/** Whether the answer's JSON has `flag: true`. */
function says(outcome: DeliveryOutcome, flag: 'duplicate' | 'ignored'): boolean {
  try {
    const parsed: unknown = JSON.parse(outcome.body ?? '');
    return isPlainObject(parsed) && parsed[flag] === true;
  } catch {
    return false;
  }
}

/** Whether the answer says `duplicate: true` (how `createWebhookHandler` acknowledges a repeated event). */
export const saysDuplicate = (outcome: DeliveryOutcome) => says(outcome, 'duplicate');

/** Whether the answer says `ignored: true`: the receiver acts on no event of this type (`createWebhookHandler`). */
export const saysIgnored = (outcome: DeliveryOutcome) => isSuccess(outcome) && says(outcome, 'ignored');

/** The outcome in a few words: `200 in 3 ms`, `no answer within 30000 ms`, `connection refused`. */
export function describeOutcome(outcome: DeliveryOutcome): string {
  if (outcome.timedOut) return `no answer within ${outcome.ms} ms`;
  if (outcome.error) return `no answer (${outcome.error})`;
  const flag = saysDuplicate(outcome) ? ' (duplicate: true)' : saysIgnored(outcome) ? ' (ignored: true)' : '';
  return `${outcome.status} in ${outcome.ms} ms${flag}`;
}

/** Whether the status is 2xx. */
export function isSuccess(outcome: DeliveryOutcome): boolean {
  return outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
}
