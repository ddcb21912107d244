import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, verifyWebhookAsync, WebhookVerificationError } from 'inr-payouts/webhooks';

export const NOW_SECONDS = 1_735_689_900; // 2025-01-01T00:05:00Z
export const NOW = NOW_SECONDS * 1000;

/** HMAC-SHA256 hex of `<t>.<body>`, computed independently of the library. */
export function hmacHex(secret: string, t: number | string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

export function envelope(overrides: Record<string, unknown> = {}) {
  return {
    id: 'evt_1',
    event: 'user.created',
    timestamp: '2025-01-01T00:05:00.000Z',
    partnerId: 'partner_1',
    data: { userId: 'usr_1', createdAt: '2025-01-01T00:05:00.000Z' },
    ...overrides,
  };
}

export type Outcome = { ok: unknown } | { reason: string; message: string } | { thrown: unknown };

type Args = Parameters<typeof verifyWebhook>;

export function syncOutcome(...args: Args): Outcome {
  try {
    return { ok: verifyWebhook(...args) };
  } catch (error) {
    return errorOutcome(error);
  }
}

export async function asyncOutcome(...args: Args): Promise<Outcome> {
  try {
    return { ok: await verifyWebhookAsync(...args) };
  } catch (error) {
    return errorOutcome(error);
  }
}

function errorOutcome(error: unknown): Outcome {
  if (error instanceof WebhookVerificationError) return { reason: error.reason, message: error.message };
  return { thrown: error };
}

/** Starts a server on a loopback port; returns its base URL and a closer. */
export async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Serves a fetch handler on node:http, as a runtime would. */
export function serveFetch(handler: (request: Request) => Promise<Response>): Server {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(name, v);
    }
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers, body });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
}
