/**
 * A "drifted sandbox" for the conformance tests: the real standalone server behind a small node:http proxy of
 * the tests' own (127.0.0.1 only), which can plant one realistic difference in what passes through it, the way a
 * partner's sandbox may differ from the mock after the service changes.
 *
 * The proxy forwards every request unchanged and hands back every answer unchanged unless the plant rewrites it.
 * Webhook deliveries pass through it too: a webhook URL set through the proxy is swapped for one of the proxy's
 * own, which forwards each delivery to the URL the run asked for (and swaps the URL back in every answer), so a
 * plant can change a delivery on its way and the clean proxy shows the round trip changes nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../src/webhooks/index.js';
import { type RunningServer, startServer } from '../server/support.js';

/** An API or helper answer as the proxy hands it to a plant: the status and the JSON body. */
export interface ProxiedAnswer {
  status: number;
  body: unknown;
}

/** A webhook delivery on its way to the run's receiver. */
export interface ProxiedDelivery {
  body: string;
  headers: Record<string, string>;
}

/** One planted difference. */
export interface Plant {
  /** Rewrites a JSON answer to `method path` (the path without its query), or returns undefined to leave it. */
  answer?: (method: string, path: string, answer: ProxiedAnswer) => ProxiedAnswer | undefined;
  /** Rewrites a delivery; `secret` is the account's webhook secret, for a plant that signs again. */
  delivery?: (delivery: ProxiedDelivery, secret: string) => ProxiedDelivery;
  /**
   * Answers the `n`th request (counted from 1) itself, before the server sees it: a status (a gateway's 503), or
   * `stall` (no answer ever); undefined forwards it.
   */
  intercept?: (method: string, path: string, n: number) => number | 'stall' | undefined;
  /** Rewrites an answer's headers (lower-case names) on their way out. */
  headers?: (method: string, path: string, headers: Headers) => void;
  /**
   * Rewrites a JSON request body on its way in (a service with a looser rule takes it as a valid one), or returns
   * undefined to leave it.
   */
  request?: (method: string, path: string, body: unknown) => unknown;
}

/** The standalone server behind the proxy. */
export interface DriftedSandbox {
  /** The proxy's base URL: what the run is pointed at. */
  url: string;
  /** The server behind it, reached directly. */
  server: RunningServer;
  close: () => Promise<void>;
}

const DELIVERIES = '/__drift/deliveries/';
/** Hop-by-hop headers, and those fetch has already acted on (it decodes the body and sets the length). */
const NOT_COPIED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
]);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'host' || NOT_COPIED.has(name) || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function send(res: ServerResponse, status: number, headers: Headers, body: string | Buffer): void {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) if (!NOT_COPIED.has(name)) out[name] = value;
  const setCookies = headers.getSetCookie();
  if (setCookies.length > 0) out['set-cookie'] = setCookies;
  res.writeHead(status, out).end(body);
}

/**
 * Starts the standalone server (from source, manual clock) and the proxy in front of it, with `plant` (none for
 * a clean proxy).
 * @example
 * const sandbox = await startDriftedSandbox(PLANTS.statusCode);
 * await runConformance({ baseUrl: sandbox.url });
 * await sandbox.close();
 */
export async function startDriftedSandbox(
  plant: Plant = {},
  shared?: RunningServer,
): Promise<DriftedSandbox> {
  // A shared server is emptied first, as a fresh one would be (a start costs a second or two of tsx per test).
  if (shared) await shared.helper('reset');
  const server = shared ?? (await startServer());
  /** Receivers the run asked for, by the proxy path that stands in for each. */
  const receivers = new Map<string, string>();
  let proxyUrl = '';

  /** The run's receiver URL in place of the proxy's stand-in, and the proxy in place of the server. */
  const outward = (text: string): string => {
    // A port followed by a digit is another port: the lookahead keeps :401 from matching inside :4010.
    let result = text.replace(new RegExp(`${escaped(server.url)}(?!\\d)`, 'g'), proxyUrl);
    for (const [path, target] of receivers)
      result = result.replace(new RegExp(`${escaped(`${proxyUrl}${path}`)}(?!\\d)`, 'g'), target);
    return result;
  };

  /** A webhook URL in a helper's arguments becomes the proxy's stand-in for it. */
  const inward = (text: string): string => {
    const parsed = parseJson(text);
    const settings = isRecord(parsed) && Array.isArray(parsed.args) ? parsed.args[0] : parsed;
    if (!isRecord(settings) || typeof settings.webhookUrl !== 'string') return text;
    const path = `${DELIVERIES}${receivers.size + 1}`;
    receivers.set(path, settings.webhookUrl);
    settings.webhookUrl = `${proxyUrl}${path}`;
    return JSON.stringify(parsed);
  };

  async function deliver(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && !NOT_COPIED.has(name)) headers[name] = value;
    let delivery: ProxiedDelivery = { body: (await readBody(req)).toString('utf8'), headers };
    if (plant.delivery) {
      const account = await server.helper('accounts/get');
      const secret = isRecord(account.body.data) ? String(account.body.data.webhookSecret) : '';
      delivery = plant.delivery(delivery, secret);
    }
    const answer = await fetch(target, { method: 'POST', headers: delivery.headers, body: delivery.body });
    send(res, answer.status, answer.headers, Buffer.from(await answer.arrayBuffer()));
  }

  /** The request body as the plant rewrites it, or as it came. */
  function rewritten(method: string, path: string, raw: Buffer): Uint8Array<ArrayBuffer> | string {
    const changed = plant.request?.(method, path, parseJson(raw.toString('utf8')));
    return changed === undefined ? new Uint8Array(raw) : JSON.stringify(changed);
  }

  let requests = 0;
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', server.url);
    const receiver = receivers.get(url.pathname);
    if (receiver !== undefined && method === 'POST') return deliver(req, res, receiver);
    requests += 1;
    const intercepted = plant.intercept?.(method, url.pathname, requests);
    if (intercepted === 'stall') return;
    if (intercepted !== undefined) {
      const body = JSON.stringify({
        error: 'Service Unavailable',
        message: 'The gateway is busy: try again',
      });
      res.writeHead(intercepted, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const raw = await readBody(req);
    const isHelperCall = url.pathname.startsWith('/__mock/accounts/');
    const body =
      method === 'GET' || method === 'HEAD'
        ? undefined
        : isHelperCall
          ? inward(raw.toString())
          : rewritten(method, url.pathname, raw);
    const answer = await fetch(url, { method, headers: requestHeaders(req), body, redirect: 'manual' });
    // fetch's headers are immutable: a copy for the plant to rewrite.
    const headers = new Headers(answer.headers);
    plant.headers?.(method, url.pathname, headers);
    const type = headers.get('content-type') ?? '';
    if (!type.includes('json')) {
      send(res, answer.status, headers, Buffer.from(await answer.arrayBuffer()));
      return;
    }
    const text = outward(await answer.text());
    const planted = plant.answer?.(method, url.pathname, { status: answer.status, body: parseJson(text) });
    if (!planted) return send(res, answer.status, headers, text);
    send(res, planted.status, headers, JSON.stringify(planted.body));
  }

  const proxy: Server = createServer((req, res) => {
    forward(req, res).catch((error: unknown) => {
      // A proxy failure must show as one, never as a planted difference.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`drifted-sandbox proxy: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url: proxyUrl,
    server,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      if (!shared) await server.stop();
    },
  };
}

/** Signs a delivery's body again, `skewSeconds` away from the time it was first signed at. */
export function resignSkewed(
  delivery: ProxiedDelivery,
  secret: string,
  skewSeconds: number,
): ProxiedDelivery {
  const header = delivery.headers['x-service-signature'] ?? '';
  const t = Number(/t=(\d+)/.exec(header)?.[1] ?? Math.floor(Date.now() / 1000));
  const signed = signWebhook({ payload: delivery.body, secret, timestamp: t + skewSeconds });
  return { body: signed.body, headers: { ...delivery.headers, 'x-service-signature': signed.signature } };
}

/** The webhook deliveries a target recorded, with each event's automatic attempts spread `factor` times wider. */
function slowerSchedule(body: unknown, factor: number): unknown {
  if (!isRecord(body) || !Array.isArray(body.data)) return body;
  const firstAt = new Map<string, number>();
  const data = body.data.map((delivery: unknown) => {
    if (!isRecord(delivery) || delivery.trigger === 'manual') return delivery;
    const at = Date.parse(String(delivery.at));
    const eventId = String(delivery.eventId);
    const first = firstAt.get(eventId) ?? at;
    firstAt.set(eventId, first);
    return { ...delivery, at: new Date(first + (at - first) * factor).toISOString() };
  });
  return { ...body, data };
}

/**
 * The differences the drift tests plant, one at a time, each the kind a real sandbox shows after the service
 * changes under a mock.
 */
export const PLANTS = {
  /**
   * `transaction.payout_completed` arrives with `receiver_name` spelled `receiverName` and a new `settledAt`,
   * signed as the service signs (the spec's payload mixes both spellings, so a service may well tidy it).
   */
  renamedAndExtraField: {
    delivery: (delivery, secret) => {
      const envelope = parseJson(delivery.body);
      if (
        !isRecord(envelope) ||
        envelope.event !== 'transaction.payout_completed' ||
        !isRecord(envelope.data)
      )
        return delivery;
      const { receiver_name, ...data } = envelope.data;
      const body = JSON.stringify({
        ...envelope,
        data: { ...data, receiverName: receiver_name, settledAt: data.completedAt },
      });
      return resignSkewed({ ...delivery, body }, secret, 0);
    },
  },
  /** No mock helpers: `/__mock` is not found, as on a partner's sandbox. */
  withoutHelpers: {
    answer: (_method, path) =>
      path === '/__mock' || path.startsWith('/__mock/')
        ? { status: 404, body: { error: 'Not Found', message: `No route ${path}` } }
        : undefined,
  },
  /** The account's `volume.monthlyUsd` spelled `monthlyUSD`: a required field the client validates. */
  renamedAccountField: {
    answer: (method, path, answer) => {
      const body = isRecord(answer.body) ? answer.body : undefined;
      const data = body?.data;
      if (method !== 'GET' || path !== '/v2/account' || !isRecord(data) || !isRecord(data.volume))
        return undefined;
      const { monthlyUsd, ...volume } = data.volume;
      return {
        ...answer,
        body: { ...body, data: { ...data, volume: { ...volume, monthlyUSD: monthlyUsd } } },
      };
    },
  },
  /** A transaction for a user without KYC is refused with 400 where the mock answers 422. */
  statusCode: {
    answer: (method, path, answer) =>
      method === 'POST' && path === '/v2/transactions' && answer.status === 422
        ? { ...answer, status: 400 }
        : undefined,
  },
  /**
   * The bank check takes an 8-digit account number, where the mock (and the contract's `^\d{9,18}$`) refuse it:
   * the proxy sends it on as a 9-digit one, as a service with a looser rule takes it.
   */
  looserRule: {
    request: (method, path, body) =>
      method === 'POST' &&
      /^\/v2\/users\/[^/]+\/kyc\/bank\/verify$/.test(path) &&
      isRecord(body) &&
      typeof body.accountNumber === 'string' &&
      /^\d{8}$/.test(body.accountNumber)
        ? { ...body, accountNumber: `${body.accountNumber}0` }
        : undefined,
  },
  /** An amount under the minimum is `AMOUNT_BELOW_MINIMUM` where the mock (and spec 7.3) say `AMOUNT_TOO_LOW`. */
  errorIdentifier: {
    answer: (method, path, answer) =>
      method === 'POST' &&
      path === '/v2/transactions' &&
      isRecord(answer.body) &&
      answer.body.code === 'AMOUNT_TOO_LOW'
        ? { ...answer, body: { ...answer.body, code: 'AMOUNT_BELOW_MINIMUM' } }
        : undefined,
  },
  /**
   * A politically exposed person's declaration is refused in shape A (`error`, `message`, `code`) where the mock
   * answers shape B (`success: false`): spec 7.1 gives both shapes and only says "some KYC endpoints" use B.
   */
  errorShape: {
    answer: (method, path, answer) => {
      if (method !== 'POST' || !/^\/v2\/users\/[^/]+\/kyc\/declaration$/.test(path) || answer.status !== 422)
        return undefined;
      const body = isRecord(answer.body) ? answer.body : {};
      return { status: 422, body: { error: body.error, message: body.message, code: 'KYC_REJECTED' } };
    },
  },
  /** The service retries a failed delivery 2, 4, 8 and 16 s later instead of 1, 2, 4 and 8. */
  slowerRetries: {
    answer: (method, path, answer) =>
      method === 'POST' && path === '/__mock/webhooks/captured'
        ? { status: answer.status, body: slowerSchedule(answer.body, 2) }
        : undefined,
  },
  /** Deliveries are signed on a clock ten minutes behind (a sandbox host whose clock drifted). */
  skewedSignature: {
    delivery: (delivery, secret) => resignSkewed(delivery, secret, -600),
  },
} satisfies Record<string, Plant>;

/**
 * The field of each event type's payload a service might spell another way, and the new spelling: never the
 * `userId` or `transactionId` a run tells its own deliveries by.
 */
export const RESPELLED: Record<WebhookEventType, readonly [from: string, to: string]> = {
  'user.created': ['createdAt', 'created_at'],
  'user.kyc_updated': ['current', 'currentKyc'],
  'transaction.created': ['depositAddress', 'deposit_address'],
  'transaction.deposit_detected': ['txHash', 'tx_hash'],
  'transaction.deposit_confirmed': ['txHash', 'tx_hash'],
  'transaction.sweep_confirmed': ['sweepTxHash', 'sweep_tx_hash'],
  'transaction.sweep_failed': ['reason', 'failureReason'],
  'transaction.payout_initiated': ['amountInr', 'amount_inr'],
  'transaction.payout_completed': ['bank_account_masked', 'bankAccountMasked'],
  'transaction.payout_failed': ['amountInr', 'amount_inr'],
};

/** A delivery's body with its event type's {@link RESPELLED} field spelled the new way (unsigned). */
export function respellOneField(body: string): string {
  const envelope = parseJson(body);
  if (!isRecord(envelope) || !isRecord(envelope.data)) return body;
  const type = WEBHOOK_EVENT_TYPES.find((known) => known === envelope.event);
  if (!type) return body;
  const [from, to] = RESPELLED[type];
  if (!(from in envelope.data)) return body;
  const { [from]: value, ...data } = envelope.data;
  return JSON.stringify({ ...envelope, data: { ...data, [to]: value } });
}

/** Every `k`th request, when it is an API request, answered 503 by the gateway before the service sees it. */
export function transient503Every(k: number): Plant {
  return { intercept: (_method, path, n) => (path.startsWith('/v2/') && n % k === 0 ? 503 : undefined) };
}

/** The `data` of a JSON answer to `GET path` (a pattern), or undefined. */
function dataOf(method: string, path: string, pattern: RegExp, answer: ProxiedAnswer) {
  const body = isRecord(answer.body) ? answer.body : undefined;
  return method === 'GET' && pattern.test(path) && answer.status === 200 ? body : undefined;
}

const TRANSACTION = /^\/v2\/transactions\/[^/]+$/;

/**
 * The classes of difference a contract check finds and a value comparison cannot: a changed format, a new enum
 * value deep inside an answer, one list item missing a field, a field added to or respelled in every event
 * type's payload, a header in another unit; and the failures a run must never read as drift (transient 503s, a stalled request).
 */
export const CONTRACT_PLANTS = {
  /** A transaction's `createdAt` as Unix seconds in a string, where the mock writes an ISO date-time. */
  timestampFormat: {
    answer: (method, path, answer) => {
      const body = dataOf(method, path, TRANSACTION, answer);
      if (!body || !isRecord(body.data) || !isRecord(body.data.transaction)) return undefined;
      const { transaction } = body.data;
      const seconds = String(Math.floor(Date.parse(String(transaction.createdAt)) / 1000));
      return {
        ...answer,
        body: { ...body, data: { ...body.data, transaction: { ...transaction, createdAt: seconds } } },
      };
    },
  },
  /** A deposit's `network` a value the contract does not list (`polygon_pos`), nested inside the transaction. */
  nestedEnum: {
    answer: (method, path, answer) => {
      const body = dataOf(method, path, TRANSACTION, answer);
      if (!body || !isRecord(body.data) || !isRecord(body.data.deposit)) return undefined;
      const deposit = { ...body.data.deposit, network: 'polygon_pos' };
      return { ...answer, body: { ...body, data: { ...body.data, deposit } } };
    },
  },
  /** The webhook event list with `status` missing from its last item only. */
  listItem: {
    answer: (method, path, answer) => {
      const body = dataOf(method, path, /^\/v2\/webhooks$/, answer);
      if (!body || !Array.isArray(body.data) || body.data.length < 2) return undefined;
      const items = [...body.data];
      const last = items.pop();
      if (!isRecord(last)) return undefined;
      const { status: _status, ...rest } = last;
      return { ...answer, body: { ...body, data: [...items, rest] } };
    },
  },
  /** Every event type's payload carries a new `data.region`, signed as the service signs. */
  everyEventType: {
    delivery: (delivery, secret) => {
      const envelope = parseJson(delivery.body);
      if (!isRecord(envelope) || !isRecord(envelope.data)) return delivery;
      const body = JSON.stringify({ ...envelope, data: { ...envelope.data, region: 'IN' } });
      return resignSkewed({ ...delivery, body }, secret, 0);
    },
  },
  /** One field of every event type's payload spelled another way ({@link RESPELLED}), signed as the service signs. */
  respelledInEveryEventType: {
    delivery: (delivery, secret) => {
      const body = respellOneField(delivery.body);
      return body === delivery.body ? delivery : resignSkewed({ ...delivery, body }, secret, 0);
    },
  },
  /** `X-RateLimit-Reset` in Unix milliseconds where the mock (and spec 8) give Unix seconds. */
  headerUnit: {
    headers: (_method, _path, headers) => {
      const reset = headers.get('x-ratelimit-reset');
      if (reset !== null) headers.set('x-ratelimit-reset', String(Number(reset) * 1000));
    },
  },
  /** One API request in 20 answered 503 by the gateway, before the service sees it. */
  transient503: transient503Every(20),
  /** The credit read never answers. */
  stalledRequest: {
    intercept: (method, path) => (method === 'GET' && path === '/v2/account/credit' ? 'stall' : undefined),
  },
  /** A transaction create never answers (the request a guided run starts its transaction with). */
  stalledCreate: {
    intercept: (method, path) => (method === 'POST' && path === '/v2/transactions' ? 'stall' : undefined),
  },
} satisfies Record<string, Plant>;

/**
 * Several plants at once, each applied in turn: for the guide's printed report, a sandbox that drifted in more
 * than one way. The drift tests plant one at a time.
 * @example
 * const plant = combined(PLANTS.withoutHelpers, PLANTS.statusCode);
 */
export function combined(...plants: Plant[]): Plant {
  return {
    answer: (method, path, answer) =>
      plants.reduce<ProxiedAnswer | undefined>((current, plant) => {
        const next = plant.answer?.(method, path, current ?? answer);
        return next ?? current;
      }, undefined),
    delivery: (delivery, secret) =>
      plants.reduce((current, plant) => plant.delivery?.(current, secret) ?? current, delivery),
    intercept: (method, path, n) =>
      plants.reduce<number | 'stall' | undefined>(
        (found, plant) => found ?? plant.intercept?.(method, path, n),
        undefined,
      ),
    headers: (method, path, headers) => {
      for (const plant of plants) plant.headers?.(method, path, headers);
    },
    request: (method, path, body) =>
      plants.reduce<unknown>(
        (current, plant) => plant.request?.(method, path, current ?? body) ?? current,
        undefined,
      ),
  };
}

/**
 * The drifted sandbox the guide's printed report comes from: no mock helpers (a sandbox has none), a new field
 * in the account, another status code, the other error shape, and a looser field rule its probes meet.
 */
export const GUIDE_DRIFT: Plant = combined(
  PLANTS.withoutHelpers,
  PLANTS.statusCode,
  PLANTS.errorShape,
  PLANTS.looserRule,
  {
    answer: (method, path, answer) =>
      method === 'GET' && path === '/v2/account' && isRecord(answer.body) && isRecord(answer.body.data)
        ? { status: answer.status, body: { ...answer.body, data: { ...answer.body.data, region: 'IN' } } }
        : undefined,
  },
);
