/**
 * `--webhook-url`: events leave the server as real signed HTTP POSTs to a local receiver, retried on the
 * spec's schedule (6.4) on the server's clock.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from 'inr-payouts/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type RunningServer, startServer } from './support.js';

interface Received {
  body: string;
  signature: string;
  eventId: string;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers, in order; 200 once they run out. */
const answers: number[] = [];

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    received.push({
      body: await text(req),
      signature: String(req.headers['x-service-signature']),
      eventId: String(req.headers['x-service-event-id']),
    });
    res.writeHead(answers.shift() ?? 200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function waitFor(count: number): Promise<void> {
  for (let i = 0; i < 200 && received.length < count; i += 1) await new Promise((r) => setTimeout(r, 25));
  expect(received).toHaveLength(count);
}

describe('webhooks to a real receiver', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(['--webhook-url', receiverUrl]);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('6.3, 6.4: user.created arrives signed with the printed secret, and a 500 is retried 1 s later', async () => {
    answers.push(500);
    const userId = await createUser(server);
    await waitFor(1);
    await server.helper('clock/advance', '999ms');
    expect(received).toHaveLength(1);
    await server.helper('clock/advance', '1ms');
    await waitFor(2);
    const [first, second] = received;
    expect(second?.eventId).toBe(first?.eventId);
    expect(second?.body).toBe(first?.body);
    const event = verifyWebhook(second?.body ?? '', second?.signature ?? '', server.secret);
    expect(event).toMatchObject({ event: 'user.created', data: { userId } });
    expect(event.id).toBe(second?.eventId);
  });

  it('POST /__mock/webhooks/settle answers once the manual retry it sent is recorded, with no clock moved', async () => {
    const before = received.length;
    const userId = await createUser(server, '9876543299');
    await server.helper('webhooks/settle');
    expect(received.at(-1)?.body).toContain(userId);
    const list = await server.call('GET', '/v2/webhooks?limit=50');
    const events = list.body.data as Array<{ id: string; attempts: number }>;
    const created = events.find((e) => e.id === received.at(-1)?.eventId);
    expect(created?.attempts).toBe(1);
    const now = (await server.helper('clock/now')).body.data;
    expect((await server.call('POST', `/v2/webhooks/${created?.id}/retry`)).status).toBe(200);
    await server.helper('webhooks/settle');
    expect(received.length).toBe(before + 2);
    const after = await server.call('GET', '/v2/webhooks?limit=50');
    const again = (after.body.data as typeof events).find((e) => e.id === created?.id);
    expect(again?.attempts).toBe(2);
    expect((await server.helper('clock/now')).body.data).toEqual(now);
  });
});
