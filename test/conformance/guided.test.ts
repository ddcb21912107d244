// A guided run (`--guided --receiver-url`) against a target as a partner's sandbox looks: the standalone server
// behind a proxy that answers 404 for /__mock/*, so the run has no helpers. The test plays the blockchain: when
// the run asks for the deposit, it makes it through the server's own helper on the server's real address (as a
// partner's testnet transfer arrives) and moves the server's manual clock, and a small forwarder in front of the
// run's receiver plays the partner's tunnel (and, once, plants a renamed payload field on the way).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceOptions, ConformanceReport } from '../../mock/conformance/types.js';
import { type GuidedDeposit, runConformance } from '../../mock/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { type RunningServer, startServer } from '../mock/server/support.js';
import { type DriftedSandbox, PLANTS, startDriftedSandbox } from './drifted-sandbox.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
}, 30_000);
afterAll(() => server?.stop());
let sandbox: DriftedSandbox | undefined;
let tunnel: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  tunnel?.closeAllConnections();
  await new Promise<void>((resolve) => (tunnel ? tunnel.close(() => resolve()) : resolve()));
  sandbox = undefined;
  tunnel = undefined;
});

const named = (report: ConformanceReport) => [
  ...new Set(report.results.flatMap((r) => r.differences.map((d) => d.text))),
];

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

type Rewrite = (body: string) => string;

/** The partner's tunnel: forwards each delivery to the run's receiver, `rewrite` applied and signed again. */
async function startTunnel(receiverPort: number, rewrite?: Rewrite): Promise<string> {
  tunnel = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name))
        headers[name] = value;
    if (rewrite) {
      const changed = rewrite(body);
      if (changed !== body) {
        const t = Number(/t=(\d+)/.exec(headers['x-service-signature'] ?? '')?.[1]);
        const signed = signWebhook({ payload: changed, secret: server.secret, timestamp: t });
        body = signed.body;
        headers['x-service-signature'] = signed.header;
      }
    }
    const answer = await fetch(`http://127.0.0.1:${receiverPort}/webhooks`, {
      method: 'POST',
      headers,
      body,
    });
    res.writeHead(answer.status).end();
  });
  await new Promise<void>((resolve) => tunnel?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/webhooks`;
}

/** The deposit arrives on the chain and the service's time moves on: confirmations, then the payout. */
async function playTheChain(deposit: GuidedDeposit): Promise<void> {
  const wait = await server.helper('transactions/simulateDeposit', { transactionId: deposit.transactionId });
  await server.helper('clock/advance', wait.body.data);
  await server.helper('clock/advance', '11s');
}

async function guidedRun(rewrite?: Rewrite): Promise<{ report: ConformanceReport; lines: string[] }> {
  sandbox = await startDriftedSandbox(PLANTS.withoutHelpers, server);
  const receiverPort = await freePort();
  const receiverUrl = await startTunnel(receiverPort, rewrite);
  // The partner's dashboard: the webhook URL is the tunnel (the API cannot set it), the user is verified.
  await server.helper('accounts/update', { webhookUrl: receiverUrl });
  const mobile = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const { userId } = (await server.helper('users/seedVerified', { mobile })).body.data as { userId: string };
  const lines: string[] = [];
  const options: ConformanceOptions = {
    baseUrl: sandbox.url,
    apiKey: server.key,
    guided: true,
    receiverUrl,
    receiverPort,
    webhookSecret: server.secret,
    userId,
    only: ['transactions.guided-flow'],
    pollIntervalMs: 20,
    guidedTimeoutMs: 10_000,
    onProgress: (line) => lines.push(line),
    onDeposit: playTheChain,
  };
  return { report: await runConformance(options), lines };
}

describe('a guided run against a target without helpers', () => {
  it('carries a transaction through: the money flow and every delivery compared, nothing reported', async () => {
    const { report, lines } = await guidedRun();
    const result = report.results.find((r) => r.id === 'transactions.guided-flow');
    expect(result?.outcome).toBe('same');
    expect(named(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    // The deposit was asked for with its address, amount and deadline, and the waits said what they saw.
    expect(
      lines.some((l) => /^guided: send 100 USDC on polygon \(testnet\) to \S+ before \S+Z/.test(l)),
    ).toBe(true);
    expect(lines).toContain('guided: the payout: seen');
    expect(lines.some((l) => l.includes("The account's webhook URL is http://127.0.0.1:"))).toBe(true);
    expect(lines.join('\n')).not.toContain(server.secret);
    // Each side reached the end and received the success path's events, each signed and checked.
    const steps = (result?.sandbox ?? []).flatMap((o) => (o.kind === 'step' ? [[o.label, o.value]] : []));
    expect(steps).toContainEqual(['the transaction ends', true]);
    expect(steps).toContainEqual(['rate attribution present', true]);
    const delivered = steps.find(([label]) => label === 'event types delivered')?.[1];
    expect(delivered).toEqual(
      expect.arrayContaining([
        'transaction.created',
        'transaction.deposit_detected',
        'transaction.deposit_confirmed',
        'transaction.payout_initiated',
        'transaction.payout_completed',
      ]),
    );
    expect(steps).toContainEqual([
      'transaction.payout_completed delivery: signature under verifyWebhook, on arrival',
      'valid',
    ]);
    const events = report.coverage.events.filter((row) => row.status === 'exercised').map((row) => row.name);
    expect(events).toEqual(expect.arrayContaining(['transaction.created', 'transaction.payout_completed']));
    expect(report.coverage.endpoints.find((row) => row.name === 'POST /v2/transactions')?.status).not.toBe(
      'not reachable',
    );
  }, 60_000);

  it('a payload field renamed in one event type on its way: named exactly, nothing else', async () => {
    const { report } = await guidedRun((body) => {
      const envelope = JSON.parse(body) as { event?: string; data?: Record<string, unknown> };
      if (envelope.event !== 'transaction.payout_completed' || !envelope.data) return body;
      const { receiver_name, ...data } = envelope.data;
      return JSON.stringify({ ...envelope, data: { ...data, receiverName: receiver_name } });
    });
    expect(named(report)).toEqual([
      'transaction.payout_completed delivery: envelope: `data.receiverName`: mock absent, sandbox string',
      'transaction.payout_completed delivery: envelope: `data.receiver_name`: mock string, sandbox absent',
    ]);
    expect(report.exitCode).toBe(1);
  }, 60_000);

  it('refuses to start without what a guided run needs, naming it', async () => {
    await expect(runConformance({ baseUrl: 'http://127.0.0.1:9', guided: true })).rejects.toThrow(
      /--guided needs --receiver-url/,
    );
    await expect(
      runConformance({
        baseUrl: 'http://127.0.0.1:9',
        guided: true,
        receiverUrl: 'https://t.example.test/w',
      }),
    ).rejects.toThrow(/webhook secret/);
  });
});
