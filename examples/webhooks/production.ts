// A receiver that was down for an hour, and `client.webhooks.recover` bringing back every event it missed, each
// processed once (docs/webhooks-in-production.md walks through it):
//
//   npx tsx node_modules/inr-payouts/examples/webhooks/production.ts          # against the embedded mock
//   INR_PAYOUTS_BASE_URL=http://127.0.0.1:4010 npx tsx node_modules/inr-payouts/examples/webhooks/production.ts
//
// The receiver is `createWebhookHandler` on node:http with the in-memory store; on several replicas give it
// `postgresWebhookStore(pool)` or `redisWebhookStore(redis)` instead, and nothing else changes.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { connectMock, createMockService, type MockHelperCalls } from 'inr-payouts/mock';
import type { WebhookSecret } from 'inr-payouts/webhooks';
import { createWebhookHandler, memoryWebhookStore, toNodeHandler } from 'inr-payouts/webhooks/handler';

/** What the run shows: how often each event's function completed, and each event's final record. */
export interface Outcome {
  runs: Map<string, number>;
  events: Map<string, { status: string; attempts: number }>;
  recovered: number;
}

/** The receiver: counts in `runs` how often each event's function ran (the partner's work, once per event). */
export function createReceiver(
  secret: WebhookSecret,
  runs: Map<string, number>,
): (request: Request) => Promise<Response> {
  return createWebhookHandler({
    secret,
    store: memoryWebhookStore(),
    on: {
      'user.created': async (event) => {
        runs.set(event.id, (runs.get(event.id) ?? 0) + 1);
      },
    },
  });
}

// New mobiles each run, so the example runs again on the same server.
const USERS = [0, 1, 2].map(() => `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`);

export async function main(log: (line: string) => void = console.log): Promise<Outcome> {
  const baseUrl = process.env.INR_PAYOUTS_BASE_URL;
  const mock = baseUrl ? undefined : createMockService();
  const helpers: MockHelperCalls = mock ? mock.helpers : connectMock(baseUrl ?? '');
  const account = await helpers.accounts.get();
  const client = mock
    ? new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl, fetch: mock.fetch })
    : new PayoutClient({ apiKey: account.keys.sandbox, baseUrl });

  const runs = new Map<string, number>();
  const handle = createReceiver(account.webhookSecret, runs);

  // Its address is taken, then it goes down: every delivery meets a refused connection.
  let receiver: Server = createServer(toNodeHandler(handle));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  await helpers.accounts.update({ webhookUrl: `http://127.0.0.1:${port}/webhooks` });
  await new Promise((resolve) => receiver.close(resolve));
  const downSince = new Date(Date.parse(await helpers.clock.now()) - 1000);
  log(`Receiver down at ${downSince.toISOString()} (the mock's clock)`);

  try {
    for (const mobile of USERS) await client.users.create({ mobile });
    // An hour in minutes: each refused attempt schedules the next 1 to 8 s later (spec 6.4), and a standalone
    // server's deliveries answer beside its clock, so time must go on after each answer.
    for (let minute = 0; minute < 60; minute++) await helpers.clock.advance('1m');
    await until(async () => {
      await helpers.clock.advance('1s');
      return (await client.webhooks.list({ status: 'pending' })).data.length === 0;
    });
    const failed = (await client.webhooks.list({ status: 'failed' })).data.filter(
      (event) => Date.parse(event.createdAt) >= downSince.getTime(),
    );
    log(`An hour later: ${failed.length} events failed after 5 attempts each`);

    receiver = createServer(toNodeHandler(handle));
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    // Two runs at once (a cron job and a person): each retry is keyed by event and attempt count, so the service
    // replays the second ask of an event instead of sending it twice.
    const query = { since: downSince, statuses: ['failed'] as const };
    const [{ retried }, again] = await Promise.all([
      client.webhooks.recover(query),
      client.webhooks.recover(query),
    ]);
    log(
      `Receiver back up; two recover runs asked for ${retried.length} and ${again.retried.length} redeliveries`,
    );
    await helpers.clock.runDue();
    await until(async () => (await client.webhooks.list({ status: 'pending' })).data.length === 0);

    const events = new Map<string, { status: string; attempts: number }>();
    for await (const { id, status, attempts, createdAt } of client.webhooks.list({}))
      if (Date.parse(createdAt) >= downSince.getTime()) events.set(id, { status, attempts });
    for (const [id, { status, attempts }] of events)
      log(`${id}: ${status} after ${attempts} attempts, processed ${runs.get(id) ?? 0} time(s)`);
    return { runs, events, recovered: retried.length };
  } finally {
    receiver.close();
  }
}

/** Polls `done` (deliveries to a standalone server run beside its clock), for at most 20 s. */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await done()); ) {
    if (Date.now() - started > 20_000) throw new Error('The deliveries did not settle within 20 s.');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runs, events } = await main();
  const wrong = [...events].filter(([id, { status }]) => status !== 'delivered' || runs.get(id) !== 1);
  if (wrong.length > 0) {
    console.error(`Not processed exactly once: ${wrong.map(([id]) => id).join(', ')}`);
    process.exit(1);
  }
}
