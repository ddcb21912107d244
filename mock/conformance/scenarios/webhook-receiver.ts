/**
 * The webhook receiver a conformance run starts on 127.0.0.1 for the webhook scenarios: it keeps every delivery
 * as it arrived (headers, raw body) with the package's own verifier's verdict on it, taken on arrival against
 * the receiver's clock as a partner's endpoint would, and answers the status it is told to.
 */
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  verifyWebhook,
  WebhookVerificationError,
} from '../../../src/webhooks/index.js';
import { objectOf, stringField } from '../../state/records.js';
import { parsed } from '../send.js';

/** One delivery as the receiver saw it. */
export interface ReceivedDelivery {
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
  /** `valid`, or the verifier's reason for rejecting it (`timestamp_out_of_tolerance`...). */
  verdict: string;
  /** The `X-Service-Event-Id` header, or the envelope's `id`. */
  eventId: string | undefined;
  /** The parsed envelope, `undefined` when the body is not JSON. */
  envelope: Record<string, unknown> | undefined;
}

/** A running receiver. */
export interface ConformanceReceiver {
  url: string;
  readonly received: ReceivedDelivery[];
  /** The status every later delivery is answered with (200 until told otherwise). */
  answerWith(status: number): void;
  /** Starts afresh for another scenario: nothing received, answered 200, verified with `secret`. */
  use(secret: string): void;
  close(): Promise<void>;
}

function verdictOf(body: string, header: string | undefined, secret: string): string {
  try {
    verifyWebhook(body, header ?? '', secret);
    return 'valid';
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.reason : 'verifier threw';
  }
}

/** Where a receiver listens, and the address it is known by. */
export interface ReceiverPlace {
  /** The port on 127.0.0.1 (default a free one). */
  port?: number;
  /** The address it listens on (default 127.0.0.1; `0.0.0.0` for a target in a container). */
  host?: string;
  /** The URL deliveries are sent to (a partner's tunnel to the port); default the local address. */
  url?: string;
}

/**
 * Starts a receiver on 127.0.0.1 that verifies with `secret`. node:http is imported here, when a webhook
 * scenario runs, so the mock's entry still loads where there is none.
 */
export async function startReceiver(first: string, place: ReceiverPlace = {}): Promise<ConformanceReceiver> {
  const [{ createServer }, { text }] = await Promise.all([
    import('node:http'),
    import('node:stream/consumers'),
  ]);
  const received: ReceivedDelivery[] = [];
  let status = 200;
  let secret = first;
  const server = createServer(async (req, res) => {
    const body = await text(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers[name] = value;
    const envelope = objectOf(parsed(body));
    received.push({
      headers,
      body,
      verdict: verdictOf(body, headers[SIGNATURE_HEADER], secret),
      eventId: headers[EVENT_ID_HEADER] ?? stringField(envelope, 'id'),
      envelope,
    });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(place.port ?? 0, place.host ?? '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: place.url ?? `http://127.0.0.1:${port}/webhooks`,
    received,
    answerWith: (next) => {
      status = next;
    },
    use(next) {
      secret = next;
      status = 200;
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
